/**
 * An expectation outside any `pm.test`, in a `try` whose `catch` swallows
 * what it throws (`try { if (json) pm.expect(json).to.have.property('book_copy_id'); } catch (e) {}`,
 * seen in a course's book-lending suite): Newman fails nothing when it does
 * not hold, and the flow's check of it failed a borrowing Newman passed. It is
 * now no check, its line left as a comment; inside a `pm.test`, or under a
 * catch that throws again, it stays one.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";

const nothing = () => ({ k: "lit" as const, value: undefined });

Deno.test("postman caught expect: a bare expectation whose failure the catch swallows is no check", () => {
  const t = translateScript(
    "try {\n  var json = pm.response.json();\n  if (json) pm.expect(json).to.have.property('book_copy_id');\n} catch (e) {}",
    nothing,
  );
  assert.equal(t.translated, 0);
  assert.equal(t.untranslatedAssertions, 0);
  assert.deepEqual(t.checks, []);
  assert.ok(t.untranslated.some((l) => l.includes("book_copy_id")), t.untranslated.join("\n"));
});

Deno.test("postman caught expect: inside a pm.test, or under a catch that throws again, it is a check", () => {
  const inTest = translateScript(
    "try { pm.test('has id', () => { pm.expect(pm.response.json()).to.have.property('id'); }); } catch (e) {}",
    nothing,
  );
  assert.equal(inTest.translated, 1);
  const arrow = translateScript(
    "try { pm.test('has id', () => pm.expect(pm.response.json()).to.have.property('id')); } catch (e) {}",
    nothing,
  );
  assert.equal(arrow.translated, 1);
  const rethrown = translateScript(
    "try { pm.expect(pm.response.json()).to.have.property('id'); } catch (e) { throw e; }",
    nothing,
  );
  assert.equal(rethrown.translated, 1);
  const plain = translateScript("pm.expect(pm.response.json()).to.have.property('id');", nothing);
  assert.equal(plain.translated, 1);
});
