/**
 * XML for the interop readers and writers: a streaming parser (saxes, SAX-style: no DOM, so a
 * million-step MSCCL file costs its compact columns, not a tree of objects) and text escaping.
 * Platform-neutral: callers feed text chunks; file access lives in src/node.
 */
import { SaxesParser } from 'saxes';
import { InputError } from '../util/errors.js';

export type XmlAttributes = Readonly<Record<string, string>>;

export interface XmlHandlers {
  /** An element opened (self-closing elements get open then close). */
  open(name: string, attributes: XmlAttributes, line: number): void;
  close?(name: string): void;
  /** Character data between tags. */
  text?(text: string): void;
}

/** A push parser: `write` text chunks, then `close`. Malformed XML is one InputError naming the line. */
export class XmlStream {
  private readonly parser = new SaxesParser({ position: true });

  constructor(
    handlers: XmlHandlers,
    private readonly field: string,
  ) {
    this.parser.on('opentag', (tag) => handlers.open(tag.name, tag.attributes as Record<string, string>, this.parser.line));
    if (handlers.close) {
      const close = handlers.close;
      this.parser.on('closetag', (tag) => close(tag.name));
    }
    if (handlers.text) this.parser.on('text', handlers.text);
  }

  write(chunk: string): this {
    this.guard(() => this.parser.write(chunk));
    return this;
  }

  close(): void {
    this.guard(() => this.parser.close());
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      if (err instanceof InputError) throw err;
      // saxes reports "line:column: message"; the first line is enough.
      const detail = (err as Error).message.split('\n')[0];
      throw new InputError(this.field, `malformed XML (${detail})`, 'well-formed XML');
    }
  }
}

/** Parses a whole document held in one string. */
export function parseXml(text: string, handlers: XmlHandlers, field: string): void {
  new XmlStream(handlers, field).write(text).close();
}

/** Escapes text for an attribute value or element content. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** `name="value"` pairs in the given order, escaped. */
export function xmlAttributes(attrs: Readonly<Record<string, string | number>>): string {
  return Object.entries(attrs)
    .map(([k, v]) => `${k}="${escapeXml(String(v))}"`)
    .join(' ');
}
