// The scripts' translated texts (static/js/ui.js), under `node --test static/js/tests`.
import test from "node:test";
import assert from "node:assert/strict";
import { translator, t } from "../ui.js";

test("a text, else the fallback, else its name", () => {
  const ui = translator({ sending: "Wird gesendet …" });
  assert.equal(ui.t("sending"), "Wird gesendet …");
  assert.equal(ui.t("saved", "Saved: {label}"), "Saved: {label}");
  assert.equal(ui.t("saved"), "saved");
});

test("plural texts pick one or other and fill the count", () => {
  const ui = translator({ bannerWaiting: { one: "{count} entry waiting", other: "{count} entries waiting" }, progress: "{count} in" });
  assert.equal(ui.counted("bannerWaiting", 1), "1 entry waiting");
  assert.equal(ui.counted("bannerWaiting", 0), "0 entries waiting");
  assert.equal(ui.counted("bannerWaiting", 3), "3 entries waiting");
  assert.equal(ui.counted("progress", 2), "2 in"); // a text without plural forms
});

test("outside a page there are no texts: names stand in", () => {
  assert.equal(t("sending"), "sending");
});
