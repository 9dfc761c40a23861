const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const isJsonSpace = (c: number) => c === SPACE || c === LF || c === CR || c === TAB;

/** Only JSON's whitespace (String.trim also takes U+00A0, U+FEFF and others, which JSON refuses). */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isJsonSpace(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Splits the text of a JSON array, arriving in pieces, into the texts of its elements, so that a
 * large body is parsed element by element as it arrives instead of in one `JSON.parse` that holds
 * the event loop (a bulk upsert's 2.2 MB: tens of ms). It only finds where each element ends
 * (strings, escapes and nesting followed, nothing validated): each element's text is then parsed
 * by the caller, and whatever is not a plain array of elements separated by commas (another value,
 * an empty element, anything after the closing bracket) turns the splitter off, so that the caller
 * parses the whole text instead and answers exactly as for any body. A text the splitter accepts
 * whole, and whose elements all parse, is valid JSON with those elements: only JSON's own
 * whitespace is allowed outside them.
 */
export class JsonArraySplitter {
  #state: 'before' | 'inside' | 'after' | 'off' = 'before';
  /** Nesting within the current element. */
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** The current element's text from earlier pieces. */
  #pending: string[] = [];
  #elements = 0;

  /** The texts of the elements this piece completes; false once the splitter is off. */
  push(text: string): string[] | false {
    if (this.#state === 'off') return false;
    const done: string[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.#state !== 'inside') {
        if (isJsonSpace(c)) continue;
        if (this.#state === 'before' && c === OPEN_BRACKET) {
          this.#state = 'inside';
          start = i + 1;
          continue;
        }
        return this.#off();
      }
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (c === BACKSLASH) this.#escaped = true;
        else if (c === QUOTE) this.#inString = false;
        continue;
      }
      if (c === QUOTE) this.#inString = true;
      else if (c === OPEN_BRACKET || c === OPEN_BRACE) this.#depth++;
      else if ((c === CLOSE_BRACKET || c === CLOSE_BRACE) && this.#depth > 0) this.#depth--;
      else if (this.#depth === 0 && (c === COMMA || c === CLOSE_BRACKET)) {
        const element = this.#take(text.slice(start, i));
        start = i + 1;
        if (isBlank(element)) {
          // `[]` is an array; an empty element after a comma (`[1,]`, `[,1]`) is not JSON.
          if (c === COMMA || this.#elements > 0) return this.#off();
        } else {
          done.push(element);
          this.#elements++;
        }
        if (c === CLOSE_BRACKET) this.#state = 'after';
      } else if (this.#depth === 0 && c === CLOSE_BRACE) return this.#off();
    }
    if (this.#state === 'inside') this.#pending.push(text.slice(start));
    return done;
  }

  /** Whether the text was a whole array, only whitespace after it. */
  end(): boolean {
    return this.#state === 'after';
  }

  #take(last: string): string {
    if (this.#pending.length === 0) return last;
    this.#pending.push(last);
    const element = this.#pending.join('');
    this.#pending = [];
    return element;
  }

  #off(): false {
    this.#state = 'off';
    this.#pending = [];
    return false;
  }
}
