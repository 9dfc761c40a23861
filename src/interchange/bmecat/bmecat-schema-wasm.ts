import { readFileSync } from 'node:fs';
import { XmlDocument, XmlLibError, XsdValidator } from 'libxml2-wasm';
import type { SchemaProblem } from './bmecat-schema-check.js';

/**
 * The bundled fallback of `pim validate` where xmllint is not installed: libxml2 compiled to
 * WebAssembly (libxml2-wasm), the same library xmllint is, but over the whole document in memory,
 * so only for files up to IN_MEMORY_LIMIT (bmecat-schema-check.ts). It parses with libxml2's
 * defaults: no entity substitution and no DTD or other external resource loaded (no XXE).
 */

const validators = new Map<string, XsdValidator>();

function validatorFor(xsd: string): XsdValidator {
  let validator = validators.get(xsd);
  if (!validator) {
    const schema = XmlDocument.fromBuffer(readFileSync(xsd));
    validator = XsdValidator.fromDoc(schema);
    validators.set(xsd, validator);
  }
  return validator;
}

/** The document's problems against the schema `xsd`, with line and column (0: not known). */
export function validateInMemory(xsd: string, bytes: Uint8Array): SchemaProblem[] {
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromBuffer(bytes);
  } catch (error) {
    if (!(error instanceof XmlLibError)) throw error;
    return problemsOf(error, 'the file is not well-formed XML, so it was not checked against the schema');
  }
  try {
    validatorFor(xsd).validate(doc);
    return [];
  } catch (error) {
    if (!(error instanceof XmlLibError)) throw error;
    return problemsOf(error, 'the schema check failed');
  } finally {
    doc.dispose();
  }
}

function problemsOf(error: XmlLibError, fallback: string): SchemaProblem[] {
  const problems = error.details.map((d) => ({
    line: d.line,
    column: d.col,
    // As xmllint's: the names without their namespace.
    message: d.message.replace(/\{[^}]*\}/g, '').trim(),
  }));
  return problems.length > 0 ? problems : [{ line: 0, message: fallback }];
}
