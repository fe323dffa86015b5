/**
 * A variable a request reads before any script makes its value, in a flow where a later
 * script makes it (`{{email}}` in a first login, a random e-mail a later folder's pre-request
 * script sets): Newman sends what the variable held then (the environment's, often empty),
 * so the made value gets a var of its own and only reads after the script take it.
 *
 * @module
 */
import { varName } from "./vars.ts";

/**
 * The reads of a flow's variables as plain vars, and the var each made value that came
 * after such a read is kept in.
 *
 * @example
 * ```ts
 * import { MadeApart } from "./made_apart.ts";
 * const apart = new MadeApart();
 * const vars = new Set<string>();
 * apart.readPlain("email", vars);
 * apart.made("email", ["email"]);
 * if (apart.varOf("email") !== "email_made" || apart.varOf("other") !== "other") throw new Error();
 * ```
 */
export class MadeApart {
  /** Variables read as `${vars.x}` while no script had made them. */
  readonly #before = new Set<string>();
  /** The var holding a made value read before, by the variable's name. */
  readonly #own = new Map<string, string>();

  /** A read of `name` as its plain var: notes it (while unmade) and adds it to the flow's vars. */
  readPlain(name: string, flowVars: Set<string>): void {
    flowVars.add(name);
    if (!this.#own.has(name)) this.#before.add(name);
  }

  /** A script made `name`'s value: a var apart when a read came before; `known` are the variables. */
  made(name: string, known: Iterable<string>): void {
    if (!this.#before.has(name) || this.#own.has(name)) return;
    const taken = new Set([...known].map(varName));
    let own = `${varName(name)}_made`;
    for (let i = 2; taken.has(own) && i < 1000; i++) own = `${varName(name)}_made_${i}`;
    this.#own.set(name, own);
  }

  /** The var a made value of `name` is read from. */
  varOf(name: string): string {
    return this.#own.get(name) ?? varName(name);
  }

  /** The var apart for `name`'s made value, when a read came before it. */
  own(name: string): string | undefined {
    return this.#own.get(name);
  }
}
