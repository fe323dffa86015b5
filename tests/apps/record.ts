/**
 * `deno task record:apps [APP...]`: re-records the stored browser sessions of
 * the apps in tests/apps (every app with a `record.ts`, or the ones named),
 * one after the other, each by its own `record.ts` in a child process. Never
 * run by the test suite: it needs Chromium.
 *
 * @module
 */
const here = new URL(".", import.meta.url);
const all: string[] = [];
for await (const entry of Deno.readDir(here)) {
  if (!entry.isDirectory) continue;
  try {
    await Deno.stat(new URL(`${entry.name}/record.ts`, here));
    all.push(entry.name);
  } catch {
    // Not an app with a recorder.
  }
}
all.sort();
const unknown = Deno.args.filter((name) => !all.includes(name));
if (unknown.length > 0) {
  console.error(`No app named ${unknown.join(", ")} in tests/apps; there are: ${all.join(", ")}.`);
  Deno.exit(2);
}
for (const app of Deno.args.length > 0 ? Deno.args : all) {
  console.error(`recording ${app}`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", new URL(`${app}/record.ts`, here).pathname],
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    console.error(`recording ${app} failed (exit ${code})`);
    Deno.exit(1);
  }
}
