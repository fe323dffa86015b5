/**
 * `deno run -A bench/redact.ts [tokens] [--against DIR]`: the redactor at a
 * long run's size. Registers N tokens (64 hex digits, and each as `Bearer …`,
 * as N flows that log in do), then masks 3,000 response bodies of 1.6 KB
 * that hold eight of them; best of 5 rounds. With `--against DIR` (another
 * checkout's root, e.g. from `git archive <rev> lib | tar -x -C DIR`) both
 * are measured, alternating in fresh processes, 8 times each, pinned to
 * CPU 1 when `taskset` is there. Prints the fastest times (the memory the
 * tables take is not read here: `Deno.memoryUsage().external` counts a
 * doubled table's old buffer until it is swept). Run by hand, never in CI.
 */
const argv = Deno.args;
const againstAt = argv.indexOf("--against");
const against = againstAt >= 0 ? argv[againstAt + 1] : undefined;
const tokens = Number(
  argv.find((a, i) => /^\d+$/.test(a) && (againstAt < 0 || i !== againstAt + 1)) ?? 10_000,
);
const child = argv.includes("--child");

if (child) await measure(argv[argv.indexOf("--child") + 1], tokens);
else if (!against) await measure(new URL("..", import.meta.url).pathname, tokens);
else await alternate([new URL("..", import.meta.url).pathname, against]);

/** One checkout's figures, in this process. */
async function measure(root: string, n: number): Promise<void> {
  const { Redactor } = await import(`${root.replace(/\/$/, "")}/lib/secrets/redactor.ts`);
  // 64 hex digits each, as a token endpoint gives them (xorshift: the same every run).
  let seed = 2463534242;
  const word = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0).toString(16).padStart(8, "0");
  };
  const hex = () => Array.from({ length: 8 }, word).join("");
  const values = Array.from({ length: n }, hex);
  const items = Array.from({ length: 50 }, (_, i) => ({ id: i, token: i % 7 ? "x" : values[i] }));
  const body = JSON.stringify({ items });
  let register = Infinity;
  let redact = Infinity;
  for (let round = 0; round < 5; round++) {
    const r = new Redactor();
    const t0 = performance.now();
    for (const v of values) {
      r.add(v);
      r.add(`Bearer ${v}`);
    }
    const t1 = performance.now();
    let length = 0;
    for (let i = 0; i < 3000; i++) length += r.redact(body + i).length;
    const t2 = performance.now();
    if (length === 0 || r.redact(body).includes(values[0])) throw new Error("nothing masked");
    register = Math.min(register, t1 - t0);
    redact = Math.min(redact, t2 - t1);
  }
  console.log(
    `${root}: ${n} tokens registered in ${register.toFixed(0)} ms; 3,000 bodies masked in ` +
      `${redact.toFixed(0)} ms`,
  );
}

/** Both checkouts, alternating in fresh processes. */
async function alternate(roots: string[]): Promise<void> {
  const pinned = await new Deno.Command("taskset", { args: ["-c", "1", "true"] }).output()
    .then((o) => o.success, () => false);
  for (let i = 0; i < 8; i++) {
    for (const root of roots) {
      const args = [
        "run",
        "-A",
        new URL(import.meta.url).pathname,
        String(tokens),
        "--child",
        root,
      ];
      const command = pinned ? "taskset" : Deno.execPath();
      const full = pinned ? ["-c", "1", Deno.execPath(), ...args] : args;
      const out = await new Deno.Command(command, { args: full, stderr: "inherit" }).output();
      await Deno.stdout.write(out.stdout);
    }
  }
}
