// PostgreSQL's own count of the statements the API ran: its sessions log every statement (log_statement = all, set per
// session in the startup packet's options, nothing changed on the server), and the load tool reads the server's log.
import { closeSync, openSync, readSync, statSync } from "node:fs";

/** A statement as log_statement logs it: "statement: ..." (simple Query) or "execute <name>: ..." (Execute). */
const STATEMENT = /\bLOG:\s+(statement|execute [^:]*):/;

export interface StatementLog {
  /** The log file read. */
  path: string;
  /** Statements logged since the log was opened (cumulative, so two readings subtract). */
  statements(): number;
}

/** The URL with `-c log_statement=all` in its startup options, so only that URL's sessions log their statements. */
export function loggingStatements(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const options = url.searchParams.get("options");
  url.searchParams.set("options", `${options ? `${options} ` : ""}-c log_statement=all`);
  return url.toString();
}

/**
 * Where the server writes its log: `pg_current_logfile()` when its logging collector runs, else Debian's
 * pg_ctlcluster convention (`/var/log/postgresql/postgresql-<cluster_name with - for />.log`).
 */
export function logPath(settings: { currentLogfile: string | null; dataDirectory: string; clusterName: string }) {
  const { currentLogfile, dataDirectory, clusterName } = settings;
  if (currentLogfile) return currentLogfile.startsWith("/") ? currentLogfile : `${dataDirectory}/${currentLogfile}`;
  return clusterName ? `/var/log/postgresql/postgresql-${clusterName.replace("/", "-")}.log` : undefined;
}

/** Counts statement lines appended to `path` from now on (each call reads only what was added since the last). */
export function openStatementLog(path: string): StatementLog {
  let offset = statSync(path).size;
  let count = 0;
  let partial = "";
  return {
    path,
    statements() {
      const size = statSync(path).size;
      if (size < offset) offset = 0;
      if (size === offset) return count;
      const buf = Buffer.alloc(size - offset);
      const fd = openSync(path, "r");
      try {
        readSync(fd, buf, 0, buf.length, offset);
      } finally {
        closeSync(fd);
      }
      offset = size;
      const lines = (partial + buf.toString("utf8")).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) if (STATEMENT.test(line)) count++;
      return count;
    },
  };
}
