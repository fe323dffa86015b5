/**
 * The progress line of a run on a terminal: how many flows are done, how
 * many failed, and what is running, rewritten in place under the blocks
 * already printed and erased before each new one, so long runs show life
 * without scrolling noise.
 *
 * @module
 */
import type { FlowResult } from "../model/result.ts";
import type { Style } from "./style.ts";
import { visible } from "./terminal.ts";

const CLEAR = "\r\x1b[2K";

/**
 * A status line kept at the bottom of the terminal.
 *
 * @example
 * ```ts
 * import { ProgressLine } from "./progress.ts";
 * import { style } from "./style.ts";
 * let out = "";
 * const line = new ProgressLine((t) => void (out += t), style(false));
 * line.start(2);
 * line.started("a.yaml");
 * if (!out.endsWith("[0/2] running a.yaml")) throw new Error(JSON.stringify(out));
 * line.clear();
 * if (!out.endsWith("\r\x1b[2K")) throw new Error();
 * ```
 */
export class ProgressLine {
  #total = 0;
  #done = 0;
  #failed = 0;
  #running: string[] = [];
  #shown = false;

  constructor(private readonly write: (text: string) => void, private readonly s: Style) {}

  /** The run starts with `total` flows. */
  start(total: number): void {
    this.#total = total;
  }

  /** A flow starts. */
  started(file: string): void {
    this.#running.push(file);
    this.#draw();
  }

  /** A flow ended (its block is already printed). */
  ended(flow: FlowResult): void {
    const at = this.#running.indexOf(flow.file);
    if (at !== -1) this.#running.splice(at, 1);
    this.#done++;
    if (flow.status === "failed" || flow.status === "error") this.#failed++;
    this.#draw();
  }

  /** Erases the line, before other output. */
  clear(): void {
    if (!this.#shown) return;
    this.write(CLEAR);
    this.#shown = false;
  }

  #draw(): void {
    if (this.#done >= this.#total && this.#running.length === 0) return this.clear();
    const failed = this.#failed > 0 ? ` ${this.s.red(`${this.#failed} failed`)}` : "";
    // Short enough for a narrow terminal: a wrapped line could not be erased.
    const file = this.#running[0] ?? "";
    const name = file.length > 48 ? `…${file.slice(-47)}` : file;
    const running = file === ""
      ? ""
      : ` running ${visible(name)}${
        this.#running.length > 1 ? ` +${this.#running.length - 1}` : ""
      }`;
    this.write(`${CLEAR}[${this.#done}/${this.#total}]${failed}${running}`);
    this.#shown = true;
  }
}
