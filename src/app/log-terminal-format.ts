/**
 * The log as a person at a terminal reads it: one short line per request (time, method, path,
 * status, milliseconds) instead of pino's JSON. Pipes, files and journals keep the JSON, which
 * programs read. Hand-written: pino-pretty would bring a dozen packages for these few lines.
 */

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

interface LogRecord {
  level?: unknown;
  time?: unknown;
  msg?: unknown;
  method?: unknown;
  path?: unknown;
  status?: unknown;
  ms?: unknown;
  err?: { message?: unknown; stack?: unknown };
}

const two = (n: number) => String(n).padStart(2, '0');

/** The local time of day, as a terminal's reader compares it with the clock. */
function clock(time: unknown): string {
  const at = typeof time === 'number' ? new Date(time) : new Date();
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
}

/**
 * One pino JSON line (with its newline) as the terminal shows it, with its newline. A line that is
 * not JSON passes unchanged: nothing written to the log is ever lost to formatting.
 */
export function formatForTerminal(line: string): string {
  let record: LogRecord;
  try {
    record = JSON.parse(line) as LogRecord;
  } catch {
    return line;
  }
  if (typeof record !== 'object' || record === null) return line;
  const time = clock(record.time);
  if (record.msg === 'request' && typeof record.method === 'string') {
    return `${time} ${record.method} ${String(record.path)} ${String(record.status)} ${String(record.ms)} ms\n`;
  }
  const level = (typeof record.level === 'number' && LEVEL_NAMES[record.level]) || 'LOG';
  let text = `${time} ${level} ${String(record.msg ?? '')}`;
  const err = record.err;
  if (err && typeof err === 'object') {
    // Errors with their stack: that is what the reader of an error needs; warnings one line.
    const detail = typeof record.level === 'number' && record.level >= 50 ? err.stack : undefined;
    text += typeof detail === 'string' ? `\n${detail}` : `: ${String(err.message)}`;
  }
  return `${text}\n`;
}
