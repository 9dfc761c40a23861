/**
 * A strict RFC 4180 reader for tests: CRLF between records (and after the last), fields quoted
 * with doubled quotes, nothing else; anything else throws, so a writer's slip cannot pass.
 */
export function parseCsvStrict(text: string): string[][] {
  const records: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const record: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error('CSV: a quoted field is not closed');
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          field += text[i++];
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          if (text[i] === '"') throw new Error(`CSV: a quote inside an unquoted field at ${i}`);
          field += text[i++];
        }
      }
      record.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text.startsWith('\r\n', i)) {
        i += 2;
        break;
      }
      throw new Error(
        `CSV: expected a comma or CRLF at ${i}, found ${JSON.stringify(text.slice(i, i + 10))}`,
      );
    }
    records.push(record);
  }
  return records;
}
