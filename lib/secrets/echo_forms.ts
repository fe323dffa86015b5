/**
 * The forms a server echoes a secret in that another reading of it makes:
 * another case (see `case_forms.ts`), each `+` read as a space (a form
 * decoder's reading of a token written unencoded in a query) in any case, and of a
 * secret of several words, those cases of its words joined by one space (a
 * text's other whitespace between them is read as one space, see
 * `spaced_view.ts`). The redactor masks each whole, cut short before `…`,
 * and by its 16-character pieces, as it does the secret as sent: an echo
 * quoted in part is as readable in any of them.
 *
 * @module
 */
import { caseForms } from "./case_forms.ts";
import { decodedViews } from "./decode.ts";
import { type Reading, readings } from "./loose_view.ts";
import { joinedForms } from "./joined_words.ts";
import { PIECE } from "./secret_index.ts";
import { textViews } from "./spaced_view.ts";

/**
 * The other forms of `value` a server may echo (never `value` itself).
 *
 * @example
 * ```ts
 * import { echoedForms } from "./echo_forms.ts";
 * const forms = echoedForms("Qm8+vZ3/kT9x");
 * for (const f of ["QM8+VZ3/KT9X", "qm8+vz3/kt9x", "Qm8 vZ3/kT9x", "QM8 VZ3/KT9X"]) {
 *   if (!forms.includes(f)) throw new Error(f + " not in " + forms.join());
 * }
 * if (!echoedForms("violet\tKq7x harbor").includes("VIOLET KQ7X HARBOR")) throw new Error();
 * if (echoedForms("admin").length !== 0) throw new Error();
 * ```
 */
export function echoedForms(value: string): string[] {
  const flat = value.replace(/\s+/g, " ");
  const forms = new Set([...caseForms(value), ...caseForms(flat)]);
  // A token sent unencoded in a query reaches the server with each `+` a space, then is echoed.
  if (value.includes("+") && !/\s/.test(value)) {
    const spaced = value.replaceAll("+", " ");
    for (const f of [spaced, ...caseForms(spaced)]) forms.add(f);
  }
  for (const f of joinedForms(flat)) forms.add(f);
  // Any 16 characters of a secret are the secret, in any case: an ordinary phrase's too.
  if (flat.length >= PIECE) forms.add(flat.toLowerCase());
  forms.delete(value);
  return [...forms];
}

/**
 * The stretches whose every 16 characters are masked, each with its other
 * forms (see {@linkcode echoedForms}): a piece of an echo in another case.
 *
 * @example
 * ```ts
 * import { echoedPieces } from "./echo_forms.ts";
 * const pieces = echoedPieces(["tok_9fK2mQ7rX4vB8nL3"]);
 * if (!pieces.includes("tok_9fK2mQ7rX4vB8nL3") || !pieces.includes("TOK_9FK2MQ7RX4VB8NL3")) throw new Error();
 * ```
 */
export function echoedPieces(stretches: readonly string[]): string[] {
  return stretches.flatMap((part) => [part, ...echoedForms(part)]);
}

/**
 * A redactor's echoed forms, and the views of a text they are looked for in:
 * a text's spaced views (see `spaced_view.ts`) only once a secret of several
 * words was registered. An Authorization value (`Bearer <token>`) holds a
 * space too, but its credential is masked alone, whatever stands before it:
 * building those views for every run that logs in made redacting a text of
 * many line breaks four times slower for nothing.
 *
 * @example
 * ```ts
 * import { Echoes } from "./echo_forms.ts";
 * const echoes = new Echoes();
 * const all = () => true;
 * const texts = () => echoes.readings("violet\tKq7x", all).map((r) => r.text);
 * if (texts().includes("violet Kq7x")) throw new Error();
 * echoes.forms("violet Kq7x");
 * if (!texts().includes("violet Kq7x")) throw new Error();
 * ```
 */
export class Echoes {
  #spaced = false;

  /** {@linkcode echoedForms} of a secret registered whole, noting one of several words. */
  forms(value: string): string[] {
    if (!this.#spaced && /\S\s+\S/.test(value)) this.#spaced = true;
    return echoedForms(value);
  }

  /**
   * `text` and every other reading of it to look for secrets in (`wanted`: see `decodedViews`),
   * loose ones too (see `loose_view.ts`).
   */
  readings(text: string, wanted: (unit: number) => boolean): Reading[] {
    return readings(text, this.#spaced ? textViews(text, wanted) : decodedViews(text, wanted));
  }
}
