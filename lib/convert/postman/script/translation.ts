/**
 * What a Postman script says for one step, as `translate.ts` gives it: a module of its own so
 * the helpers that fill parts of it (`set_value.ts`) need not import the translator.
 *
 * @module
 */
import type { CheckItem } from "./each.ts";
import type { NextRequest } from "./next.ts";
import type { SideRequest } from "./side_request.ts";
import type { VarScope } from "../scopes.ts";
import type { Cond } from "./sym.ts";
import type { Share } from "./share.ts";

/** What a script says, for one step. */
export interface Translation {
  checks: CheckItem[];
  /**
   * Variables set from the response: each a capture of the step; `guarded`
   * when an `if` on the response decides whether the script sets it.
   */
  captures: {
    name: string;
    path: string;
    guarded?: boolean;
    /** The `if`s on the response it is set under, when all are (a capture's `when`). */
    when?: Cond[];
    first?: boolean;
    of?: string;
    /** Read by a request the script sends (response_send.ts): optional, kept though no `{{…}}` reads it. */
    forSend?: true;
    /** A pattern whose first group is the value, over `header` (by name) or else the body text. */
    regex?: string;
    header?: string;
    /**
     * A capture's `as`: `length`, the count of what `path` selects (`json.items.length`);
     * `string`, its text (`json.id.toString()`), as Postman keeps it.
     */
    as?: "length" | "string";
    /** The scope the script sets it in (`pm.globals.set`: `global`). */
    scope?: VarScope;
    /**
     * Where the script reads the value when its `when` does not hold (the body's token, else a
     * cookie's: fallback.ts), and the conditions on that (the variable unset before the script).
     */
    fallback?: {
      path: string;
      first?: boolean;
      regex?: string;
      header?: string;
      when?: Cond[];
    };
  }[];
  /**
   * Variables set outright: to text known now, to another variable (`expr`:
   * its flow expression), or to a value made at run time (`made`: flow
   * expression text, for a flow var evaluated once per flow run), or removed
   * (`unset`: later requests send `{{name}}` as written, as Postman does).
   */
  sets: {
    name: string;
    value: string;
    kind: "text" | "expr" | "made" | "step" | "unset";
    /** The made values of a script's locals a `made` value holds (share.ts). */
    shares?: Share[];
    /** The scope the script sets (or unsets) it in; none: a loop's own element. */
    scope?: VarScope;
    /** For `text`: the variables of the collection's files it was worked out from, when converting. */
    derived?: string[];
    /** For `made`: a random draw in it is taken at its least, the same in every run (sym.ts). */
    fixed?: true;
  }[];
  /** Requests a pre-request script sends first (`pm.sendRequest`), in its order. */
  sides?: SideRequest[];
  /** Why each `pm.sendRequest` the flow cannot send is not sent, for the summary. */
  unsent?: string[];
  /** Headers a pre-request script adds to its request (`pm.request.headers.add`), as Postman text. */
  headers?: { key: string; value: string }[];
  /** The body a pre-request script writes into its request (`pm.request.body.raw = …`), the last one. */
  body?: { raw: string; stringified?: true };
  /** The URL a pre-request script writes into its request (`pm.request.url = …`), the last one. */
  url?: string;
  /** Query parameters a pre-request script adds (`pm.request.url.query.add`), as `key=value` Postman text. */
  query?: string[];
  /** Source lines of statements not translated. */
  untranslated: string[];
  /** Variables a statement not translated sets (`x.toUpperCase()`): later reads do not get it. */
  dropped: string[];
  /** The statement (its first line) that set each of `dropped`, for the summary to name. */
  droppedLines?: Map<string, string>;
  translated: number;
  untranslatedAssertions: number;
  /** Whether the script empties a scope (`pm.environment.clear()`): every chain is broken. */
  cleared?: boolean;
  /** Where the script sends the run next, when it says so in a way a flow can. */
  next?: NextRequest;
}

/**
 * A translation of nothing yet, for a script's walk to fill.
 *
 * @example
 * ```ts
 * import { emptyTranslation } from "./translation.ts";
 * const t = emptyTranslation();
 * if (t.checks.length !== 0 || t.translated !== 0) throw new Error();
 * ```
 */
export function emptyTranslation(): Translation {
  return {
    checks: [],
    captures: [],
    sets: [],
    untranslated: [],
    dropped: [],
    translated: 0,
    untranslatedAssertions: 0,
  };
}
