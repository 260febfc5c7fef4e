/** Instants as the API prints them: whole seconds, UTC. */
export const instant = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;
