import assert from "node:assert/strict";
import { addNotes } from "../../../lib/convert/correlate/notes.ts";
import { emptyCorrelator } from "../../../lib/convert/correlate/state.ts";

Deno.test("addNotes: one note per kind, singular and plural", () => {
  const c = emptyCorrelator("a", true);
  c.jarFilled = 1;
  c.strayIfMatch.push("update_doc");
  c.uploads.push({ step: "upload", path: "uploads/a.pdf", placeholder: true, omitted: false });
  addNotes(c);
  assert.equal(c.notes.length, 3);
  assert.match(c.notes[0], /^1 request was recorded without its cookies; it sends/);
  assert.match(
    c.notes[1],
    /uploads\/a\.pdf \(step "upload", a placeholder\); the recording does not hold/,
  );
  assert.match(c.notes[2], /^The If-Match header of "update_doc"/);
});

Deno.test("addNotes: a form upload names the page and the typed fields", () => {
  const c = emptyCorrelator("a", true);
  const form = { page: "GET /photos/new", typed: ["caption", "alt"] };
  c.uploads.push({
    step: "upload",
    path: "uploads/p.jpg",
    placeholder: true,
    omitted: false,
    form,
  });
  addNotes(c);
  assert.match(
    c.notes[0],
    /its fields are the form's on GET \/photos\/new, and caption, alt hold "\(not recorded\)"/,
  );
});
