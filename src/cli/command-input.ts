/** What a command of bin/pim.js is given by main.ts: the data folder, its arguments, and its streams. */
export interface CommandInput {
  dataDir: string;
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
  stdin: NodeJS.ReadableStream;
  out: (line: string) => void;
}
