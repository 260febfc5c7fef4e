// What a log line may carry of an error, for every door and background job.
/**
 * What the log gets of an unexpected error: its type, code, message and stack only. Database errors
 * carry the statement, its parameters (names, PIN hashes, barcodes) and the failing row, none of
 * which may reach a log line.
 */
export function loggable(error: unknown): { type: string; code?: unknown; message: string; stack?: string } {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.constructor?.name ?? 'Error',
    ...(code === undefined ? {} : { code }),
    message: error.message,
    ...(error.stack ? { stack: error.stack } : {}),
  };
}
