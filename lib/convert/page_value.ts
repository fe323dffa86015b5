/**
 * What a page value is (the value, the pattern that finds it again, whether a credential) and
 * which of a page's values are worth capturing: shared by the readings of tags, links and
 * scripts in pages.ts.
 *
 * @module
 */
import { isSecretName, saysWord } from "../secrets/mod.ts";
import { linkShaped } from "./link_shaped.ts";

/** A value a page carries, with the regular expression that finds it again in a new copy. */
export interface PageValue {
  /** The `name` of the meta tag or input, the `data-` attribute's name after `data-`, or the script's key. */
  name: string;
  value: string;
  /** A JavaScript pattern whose first group is the value. */
  pattern: string;
  /** Whether the value is a credential (a CSRF token, a key) rather than an id. */
  secret: boolean;
  /**
   * A number a hidden form field hands back (a revision's timestamp, a
   * serial): the server's state, sent back as it came whatever its field's name.
   */
  state?: boolean;
  /** The text as the page wrote it, when a script's string escaped it (`abc+\\` for `abc+\`). */
  raw?: string;
  /** The text as a link wrote it, when it percent-encoded it (`%2Aab12` for `*ab12`). */
  encoded?: string;
}

/** Whether a name is an id's: `workspace-id`, `userId`, `data-team`, … */
export const ID_NAME = /(^|[_-])(id|ID|uuid|ref|key|slug)$|[a-z](Id|ID|Key|Ref)$/;

/**
 * Whether a page value is worth capturing: a token or an id the server made up, not a path
 * (`/dashboard`), a URL, a word or a sentence, which a fresh page repeats and a flow may keep.
 *
 * @example
 * ```ts
 * import { embedded } from "./page_value.ts";
 * if (!embedded("csrf", "c-4f9a2e71b8", 8) || embedded("next", "/dashboard", 8)) throw new Error();
 * ```
 */
export function embedded(name: string, value: string, min: number, hidden = false): boolean {
  if (value.length < min || value.length > 400 || /[\s&<>]/.test(value)) return false;
  if (linkShaped(value)) return false;
  // A hidden field named a token hands back what the server made, of digits too (`448664:180196`).
  if (hidden && secretName(name)) return true;
  if (/^\d+$/.test(value)) return hidden || (value.length >= 3 && ID_NAME.test(name));
  return (/\d/.test(value) && /[a-z]/i.test(value)) ||
    (value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value));
}

/**
 * Whether a page value's name says it holds a credential: a secret's name, or a nonce.
 *
 * @example
 * ```ts
 * import { secretName } from "./page_value.ts";
 * if (!secretName("_wpnonce") || secretName("page")) throw new Error();
 * ```
 */
export const secretName = (name: string): boolean =>
  isSecretName(name) || saysWord(name, ["NONCE"]);
