import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError } from '../helpers/expect-cli.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';
import { bmecatSample } from '../helpers/bmecat-samples.js';

/** `pim validate FILE`: the schema (xmllint, which CI installs) and pim's own checks, with lines. */
let dir: string;
beforeEach(async () => {
  dir = await newDataDir('pim-validate-');
});
afterEach(() => removeDataDir(dir));

/** A file whose HEADER is never closed (line 4, column 10: the mismatched end tag). */
function brokenFile(): string {
  const file = join(dir, 'broken.xml');
  writeFileSync(
    file,
    '<?xml version="1.0"?>\n<BMECAT version="2005.1" xmlns="http://www.bmecat.org/bmecat/2005.1">\n<HEADER>\n</BMECAT>\n',
  );
  return file;
}

const XMLLINT = 'xmllint --stream against bmecat_2005_1.xsd';
/** pim validate needs no data folder: run with one that does not exist. */
const validate = (file: string) => runCliAsync(join(dir, 'no-data-folder'), ['validate', file]);

describe('pim validate', () => {
  it('passes a clean supplier file, naming what checked it', async () => {
    const file = bmecatSample('WEI_BMECat_1609801044.xml');
    const result = await validate(file);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `${file}: no problems (0 from ${XMLLINT} (the root's namespace read as 2005.1), 0 from pim's checks)\n`,
    );
  });

  it('reports the schema’s problems with their lines and exits 1', async () => {
    const file = bmecatSample('WEI_BMECat_1351590000.xml');
    const result = await validate(file);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      `${file}:40: Element 'KEYWORD': [facet 'maxLength'] The value has a length of '54'; this exceeds the allowed maximum length of '50'.\n` +
        `${file}: 1 problem (1 from ${XMLLINT} (the root's namespace read as 2005.1), 0 from pim's checks)\n`,
    );
  });

  it('checks what the schema cannot: references, duplicates, languages, lengths (here without a schema check)', async () => {
    const file = join(dir, 'catalogue.xml');
    writeFileSync(
      file,
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<BMECAT version="2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE></CATALOG></HEADER>',
        '<T_NEW_CATALOG><CATALOG_GROUP_SYSTEM>',
        '<CATALOG_STRUCTURE type="leaf"><GROUP_ID>1</GROUP_ID><GROUP_NAME>A</GROUP_NAME><PARENT_ID>9</PARENT_ID></CATALOG_STRUCTURE>',
        '</CATALOG_GROUP_SYSTEM>',
        `<PRODUCT><SUPPLIER_PID>${'P'.repeat(33)}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>x</DESCRIPTION_SHORT></PRODUCT_DETAILS></PRODUCT>`,
        '<PRODUCT><SUPPLIER_PID>A</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT lang="xx">x</DESCRIPTION_SHORT></PRODUCT_DETAILS></PRODUCT>',
        '<PRODUCT><SUPPLIER_PID>A</SUPPLIER_PID><PRODUCT_DETAILS/><PRODUCT_REFERENCE type="base_product"><PROD_ID_TO>M</PROD_ID_TO></PRODUCT_REFERENCE></PRODUCT>',
        '<PRODUCT_TO_CATALOGGROUP_MAP><PROD_ID>Z</PROD_ID><CATALOG_GROUP_ID>7</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>',
        '</T_NEW_CATALOG></BMECAT>',
      ].join('\n'),
    );
    const result = await validate(file);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      `${file}:4:1: The group '1' names the parent '9', which the file does not hold`,
      `${file}:6:1: Product '${'P'.repeat(33)}': SUPPLIER_PID is 33 characters, over BMEcat's 32`,
      `${file}:7:1: Product 'A': DESCRIPTION_SHORT in language 'xx', which is not an ISO 639-2 code pim knows (its first use)`,
      `${file}:8:1: SUPPLIER_PID 'A' is given twice (first at line 7)`,
      `${file}:8:1: Product 'A' has no DESCRIPTION_SHORT, which BMEcat requires`,
      `${file}:8:1: Product 'A''s base_product names the product 'M', which the file does not hold`,
      `${file}:9:1: PRODUCT_TO_CATALOGGROUP_MAP names the group '7', which the file's CATALOG_GROUP_SYSTEM does not hold`,
      `${file}:9:1: PRODUCT_TO_CATALOGGROUP_MAP names the product 'Z', which the file does not hold`,
      `${file}: 8 problems (0 from no schema check (the file's namespace is missing: the BMEcat 2005.1 schema applies to BMEcat 2005 documents; schema check skipped), 8 from pim's checks)`,
      '',
    ]);
  });

  it('reports a file that is not well-formed, from both checks', async () => {
    const file = brokenFile();
    const result = await validate(file);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      `${file}: xmllint could not parse the file, so it was not checked against the schema\n` +
        `${file}:4:10: The file is not well-formed XML: unexpected close tag.\n` +
        `${file}: 2 problems (1 from ${XMLLINT}, 1 from pim's checks)\n`,
    );
  });

  describe('on a machine without xmllint', () => {
    // Nothing on PATH: spawning xmllint fails as where it is not installed.
    const withoutXmllint = (file: string) =>
      runCliAsync(join(dir, 'no-data-folder'), ['validate', file], { env: { PATH: join(dir, 'empty') } });
    const BUNDLED =
      "the bundled libxml2 (libxml2-wasm, the file read whole; xmllint is not installed) against bmecat_2005_1.xsd (the root's namespace read as 2005.1)";

    it('checks against the schema with the bundled libxml2, saying so', async () => {
      const clean = bmecatSample('WEI_BMECat_1609801044.xml');
      const passed = await withoutXmllint(clean);
      expect(passed.stderr).toBe('');
      expect(passed.stdout).toBe(`${clean}: no problems (0 from ${BUNDLED}, 0 from pim's checks)\n`);
      expect(passed.code).toBe(0);
      const file = bmecatSample('WEI_BMECat_1351590000.xml');
      const refused = await withoutXmllint(file);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe(
        `${file}:40: Element 'KEYWORD': [facet 'maxLength'] The value has a length of '54'; this exceeds the allowed maximum length of '50'.\n` +
          `${file}: 1 problem (1 from ${BUNDLED}, 0 from pim's checks)\n`,
      );
    });

    it('reports a file that is not well-formed with line and column', async () => {
      const file = brokenFile();
      const result = await withoutXmllint(file);
      expect(result.code).toBe(1);
      expect(result.stdout.split('\n')[0]).toBe(
        `${file}:4:10: Opening and ending tag mismatch: HEADER line 3 and BMECAT`,
      );
    });
  });

  it('answers usage mistakes in one line', async () => {
    expectOneLineError(await runCliAsync(dir, ['validate']), /^pim: pim validate needs a BMEcat file$/);
    expectOneLineError(await validate(join(dir, 'nope.xml')), /cannot read .*nope\.xml: no such file/);
  });
});
