/**
 * Validates JUnit XML against the Jenkins JUnit XSD with xmllint, the schema
 * that GitLab, GitHub test reporters and Jenkins accept. The XSD is kept in
 * the repository (`tests/fixtures/junit/`, with its origin and licence), or
 * `$JUNIT_XSD` names another.
 * Outside CI a missing xmllint or XSD makes the tests that need them ignored,
 * with the reason in their names; with `CI=true` they run and fail.
 */
import assert from "node:assert/strict";

const XSD_CANDIDATES = [
  Deno.env.get("JUNIT_XSD"),
  decodeURIComponent(new URL("../fixtures/junit/jenkins-junit.xsd", import.meta.url).pathname),
].filter((p): p is string => !!p);

function findXsd(): string | undefined {
  for (const path of XSD_CANDIDATES) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // Not there; try the next one.
    }
  }
  return undefined;
}

async function hasCommand(name: string): Promise<boolean> {
  try {
    await new Deno.Command(name, { args: ["--version"], stdout: "null", stderr: "null" }).output();
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

const xsd = findXsd();
const hasXmllint = await hasCommand("xmllint");

/** Whether tests that validate with xmllint should be ignored here. */
export const ignoreXsd: boolean = !(hasXmllint && xsd) && Deno.env.get("CI") !== "true";

/** Appended to the names of such tests, saying why they were ignored. */
export const whyXsdIgnored: string = ignoreXsd
  ? ` [ignored: ${
    hasXmllint ? "no JUnit XSD found" : "xmllint not installed"
  }; with CI=true this fails]`
  : "";

/** Validates an XML file against the XSD; fails with xmllint's complaint. */
export async function validateJUnitFile(file: string): Promise<void> {
  assert.ok(hasXmllint, "xmllint is required in CI (apt-get install libxml2-utils)");
  assert.ok(xsd, `the JUnit XSD was not found in: ${XSD_CANDIDATES.join(", ")}`);
  const { success, stderr } = await new Deno.Command("xmllint", {
    args: ["--noout", "--schema", xsd, file],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(success, `xmllint rejected the XML:\n${new TextDecoder().decode(stderr)}`);
}

/** Validates XML text against the XSD through a temporary file. */
export async function validateJUnit(xml: string): Promise<void> {
  const file = await Deno.makeTempFile({ prefix: "flowrun-junit-", suffix: ".xml" });
  try {
    await Deno.writeTextFile(file, xml);
    await validateJUnitFile(file);
  } finally {
    await Deno.remove(file);
  }
}
