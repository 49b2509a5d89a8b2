/** The local service's port when none is given (kept apart so the CLI can show it without loading the server). */
export const DEFAULT_PORT = 8787;
