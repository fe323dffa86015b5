/**
 * Whether the real `curl` can be run here: the tests that compare what
 * `convert curl`'s flows send with what curl sends are skipped without it.
 */
export const hasCurl: boolean = (() => {
  try {
    return new Deno.Command("curl", { args: ["--version"], stdout: "null" }).outputSync().success;
  } catch {
    return false;
  }
})();
