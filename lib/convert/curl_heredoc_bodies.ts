/**
 * Which lines of a page are a here-document's body. The readers that walk
 * a page line by line before the shell reads it (code fences, HTML and
 * reST comments, answers written as prose, `//` comments) must leave a
 * body's lines as written: a `# returns {…}` or a fence inside `<<EOF … EOF`
 * is the text the command sends, not the page's.
 *
 * @module
 */

/** A here-document's start (`<<EOF`, `<<-'EOF'`, `<< "END"`); a here-string's `<<<` is none. */
const HEREDOC = /(?:^|[^<])<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1/;

/**
 * Follows a page line by line: {@linkcode HeredocBodies.holds} says whether a line is a
 * here-document's body (its closing word included), {@linkcode HeredocBodies.note} reads a line
 * the page's reader kept for one it starts.
 *
 * @example
 * ```ts
 * import { HeredocBodies } from "./curl_heredoc_bodies.ts";
 * const bodies = new HeredocBodies();
 * const lines = ["curl -d @- http://a.test/ <<'EOF'", "# kept", "EOF", "# read"];
 * const read = lines.filter((line) => {
 *   if (bodies.holds(line)) return false;
 *   bodies.note(line);
 *   return true;
 * });
 * if (read.join("|") !== "curl -d @- http://a.test/ <<'EOF'|# read") throw new Error(read.join("|"));
 * ```
 */
export class HeredocBodies {
  #word = "";

  /** Whether `line` is the body of a here-document an earlier line started, or its closing word. */
  holds(line: string): boolean {
    if (this.#word === "") return false;
    if (line.trim() === this.#word) this.#word = "";
    return true;
  }

  /** Notes the here-document `line` starts, if any: the lines after it are its body. */
  note(line: string): void {
    this.#word = HEREDOC.exec(line)?.[2] ?? "";
  }
}
