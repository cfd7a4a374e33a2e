/** PostgreSQL database URLs as the shells see them, without loading the driver. */

/** The protocols that select the PostgreSQL store (`--db postgres://…`). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL with its password replaced by `***`, for messages (never the password itself). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    for (const key of [...parsed.searchParams.keys()]) {
      if (/pass|secret|key/i.test(key)) parsed.searchParams.set(key, "***");
    }
    return parsed.toString();
  } catch {
    return "the database URL";
  }
}
