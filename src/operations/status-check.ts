// What `carrel status` asks a running service: the seed's service code, 0 with the version when
// GET /api answers Healthy, -1 with the reason otherwise.
export type StatusResult = { ok: true; version: string } | { ok: false; reason: string };

interface Report {
  status?: string;
  entries?: Record<string, { status?: string; description?: string; data?: Record<string, { version?: string }> }>;
}

export async function checkStatus(baseUrl: string, timeoutMs: number): Promise<StatusResult> {
  let url: URL;
  try {
    url = new URL('api', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  } catch {
    return { ok: false, reason: `invalid URL ${baseUrl}` };
  }
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail =
      (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (cause?.code ?? cause?.message ?? String(error));
    return { ok: false, reason: `unreachable: ${url.href}: ${detail}` };
  }
  if (response.status === 404) {
    const body = (await response.json().catch(() => ({}))) as { description?: string };
    return { ok: false, reason: `not running (404)${body.description ? `: ${body.description}` : ''}` };
  }
  if (response.status !== 200) return { ok: false, reason: `unexpected HTTP ${response.status} from ${url.href}` };
  let report: Report;
  try {
    report = (await response.json()) as Report;
  } catch {
    return { ok: false, reason: `${url.href} did not answer with a health report` };
  }
  const api = Object.values(report.entries?.API?.data ?? {})[0];
  if (report.status !== 'Healthy') {
    const failed = Object.entries(report.entries ?? {})
      .filter(([, entry]) => entry.status !== 'Healthy')
      .map(([name, entry]) => `${name}: ${entry.description ?? 'Unhealthy'}`);
    return { ok: false, reason: `Unhealthy: ${failed.join('; ') || 'no detail'}` };
  }
  if (!api?.version) return { ok: false, reason: `${url.href} did not report a version` };
  return { ok: true, version: api.version };
}
