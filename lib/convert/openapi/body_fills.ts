/**
 * The fills a step's body goes through once its fields are made, in order:
 * a create's constant key left out (the server makes it), values a producer answered, ids a body links to, the run's own item, what
 * an update reads back (a settings update: its read's values where the document states none), keys the operation's apiKey schemes name, secrets the user gives, the
 * condition of a second sign-up, what a call undoing an earlier one sends of its body, and what a
 * write selecting items by their members sends of the create's (matched_write.ts).
 *
 * @module
 */
import { fillAnswered } from "./answered_values.ts";
import { fillBodyIds } from "./body_link_fill.ts";
import { fillBodyKeys } from "./body_keys.ts";
import { fillBodySecrets } from "./body_secrets.ts";
import { fillMadeKey } from "./made_key.ts";
import { fillOwnItem } from "./own_item.ts";
import { fillReadBack } from "./read_back.ts";
import { fillSettingsReadBack } from "./settings_read_back.ts";
import { fillSecondSignup } from "./second_signup.ts";
import { fillUndone } from "./undo_values.ts";
import { fillMatched } from "./matched_write.ts";

/**
 * Each fill, called with the flows' shared state and one step's body.
 *
 * @example
 * ```ts
 * import { BODY_FILLS } from "./body_fills.ts";
 * if (BODY_FILLS.length !== 11) throw new Error();
 * ```
 */
export const BODY_FILLS = [
  fillMadeKey,
  fillAnswered,
  fillBodyIds,
  fillOwnItem,
  fillReadBack,
  fillSettingsReadBack,
  fillBodyKeys,
  fillBodySecrets,
  fillSecondSignup,
  fillUndone,
  fillMatched,
];
