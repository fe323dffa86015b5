/**
 * A message flowrun writes, kept as its own words and the values it quotes
 * between them, so that the values can be masked where the message is shown
 * and the words never are. A short secret (a password `refused`, `step`) is
 * masked where it is a value; masking the whole text as one value made
 * `Request failed: connection ***` of flowrun's own sentence.
 *
 * @module
 */
import { type Masking, PLAIN } from "./masking.ts";

/** flowrun's words (`words.length === values.length + 1`) and the values quoted between them. */
export interface Told {
  /** The message's own text, around the values. */
  readonly words: readonly string[];
  /** The values it quotes (a URL, a number of the flow), each masked as a value. */
  readonly values: readonly string[];
}

/**
 * A message as a tagged template: the literal text is flowrun's words, each
 * `${…}` a value it quotes.
 *
 * @example
 * ```ts
 * import { told } from "./told.ts";
 * const url = "http://h/x?q=refused";
 * const t = told`"${url}" is not an absolute http or https URL.`;
 * if (t.values[0] !== url || t.words.length !== 2) throw new Error();
 * ```
 */
export function told(words: TemplateStringsArray, ...values: unknown[]): Told {
  return { words: [...words], values: values.map(String) };
}

/**
 * The message's text, each value masked by `display` (nothing masked by
 * default), the words as written.
 *
 * @example
 * ```ts
 * import { tell, told } from "./told.ts";
 * const display = { redact: (text: string) => text.replace(/\brefused\b/g, "***") };
 * const t = told`Request failed: connection refused, to "${"http://h/x?q=refused"}".`;
 * const shown = tell(t, display);
 * if (shown !== 'Request failed: connection refused, to "http://h/x?q=***".') throw new Error(shown);
 * if (tell(t) !== 'Request failed: connection refused, to "http://h/x?q=refused".') throw new Error();
 * ```
 */
export function tell(message: Told, display: Pick<Masking, "redact"> = PLAIN): string {
  let text = message.words[0];
  for (let i = 0; i < message.values.length; i++) {
    text += display.redact(message.values[i]) + message.words[i + 1];
  }
  return text;
}

/**
 * `message` with flowrun's words `before` and `after` around it.
 *
 * @example
 * ```ts
 * import { around, tell, told } from "./told.ts";
 * const t = around("Request failed: ", told`${"odd"} reason`, ".");
 * if (tell(t) !== "Request failed: odd reason." || t.values.length !== 1) throw new Error();
 * ```
 */
export function around(before: string, message: Told, after: string): Told {
  const words = [...message.words];
  words[0] = before + words[0];
  words[words.length - 1] += after;
  return { words, values: message.values };
}

/**
 * A message of flowrun's words only, with what the flow wrote (a variable's
 * name, an expression's text, a path): it quotes no value.
 *
 * @example
 * ```ts
 * import { ownWords, tell } from "./told.ts";
 * const t = ownWords('Flow var "user" is not defined (in "${vars.user}").');
 * const display = { redact: (text: string) => text.replace(/\bdefined\b/g, "***") };
 * if (t.values.length !== 0 || tell(t, display) !== 'Flow var "user" is not defined (in "${vars.user}").') throw new Error();
 * ```
 */
export function ownWords(text: string): Told {
  return { words: [text], values: [] };
}

/**
 * The messages one after the other, as one message: a sentence made of parts
 * that each quote their own values.
 *
 * @example
 * ```ts
 * import { joined, tell, told } from "./told.ts";
 * const t = joined(told`header "${"x-a"}" is `, told`the string ${'"b"'}`, told`, not a map`);
 * if (tell(t) !== 'header "x-a" is the string "b", not a map' || t.values.length !== 2) {
 *   throw new Error(tell(t));
 * }
 * ```
 */
export function joined(...messages: readonly Told[]): Told {
  const words: string[] = [""];
  const values: string[] = [];
  for (const message of messages) {
    words[words.length - 1] += message.words[0];
    words.push(...message.words.slice(1));
    values.push(...message.values);
  }
  return { words, values };
}

/**
 * Whether `value` is a message made as told words (not a string, not another
 * kind of result a function returns instead of a sentence).
 *
 * @example
 * ```ts
 * import { isTold, told } from "./told.ts";
 * if (!isTold(told`bad ${"x"}`) || isTold("bad x") || isTold({ "grpc.max": 1 })) throw new Error();
 * ```
 */
export function isTold(value: unknown): value is Told {
  const maybe = value as Partial<Told> | null;
  return typeof maybe === "object" && maybe !== null && Array.isArray(maybe.words) &&
    Array.isArray(maybe.values);
}
