/**
 * Issue 25, no labels, round 11: which events a rule is about and when (blind14's three specs). Written
 * here for a world of its own: a pottery studio whose assistant, Cone, looks members up, starts and
 * closes kiln firings, writes the kiln book, checks glazes, messages members and releases their pieces.
 * - a passive duty on a class of events with a window of steps ("every firing of more than 12 kg … shall
 *   be written in the kiln book for the same member no later than the second event after the firing"):
 *   a pairing of each such event, `within` the steps the words count (draft.ts, clauses.ts pairingFrom);
 * - the act the words name, not a neighbour: "begins"/"commences" a firing is `start_firing`, "recorded as
 *   complete"/"finished" its close, "you'll hear from us" a message to the member (words.ts, voice-letters.ts),
 *   and "a message about another load doesn't count" ties the pairing by the load (another.ts);
 * - a person's words before each act, asked again for each one ("unless you tell us, before each release,
 *   "…"", "One firing, one go-ahead"): `fresh: true`, the person's words first (consent.ts, voice.ts).
 */
import { describe, expect, it } from "vitest";
import type { Trajectory } from "../../runtime/types.js";
import { draftOf, session } from "../support/offline-drafts.js";

const DESCRIPTION = "Studio rules for Cone, the assistant that runs the kiln room.";
const PREAMBLE =
  "Cone looks a member up (`find_member`, by `member_id`), loads the kiln (`load_kiln`, with `load_id`, `member_id` and " +
  "`kg`), writes the kiln book (`write_book`, with `member_id` and `load_id`), checks a glaze (`check_glaze`, with " +
  "`load_id`), starts a firing (`start_firing`, with `load_id` and `member_id`) and closes it (`close_firing`, with " +
  "`load_id`), messages a member (`notify_member`, with `member_id` and `load_id`) and releases the fired pieces " +
  "(`release_piece`, with `load_id`).";

const draft = (body: string, samples: Trajectory[]) => draftOf(PREAMBLE, body, samples, "kiln-room", DESCRIPTION);
const checksOf = (body: string, samples: Trajectory[]) => draft(body, samples).ir.metaBehaviors[0]!.checks.map(({ quote: _q, ...c }) => c);

/** A session whose user turns (`["user", "fire it"]`) are chat messages saying those words. */
const chat = (t: Trajectory): Trajectory => ({
  ...t,
  events: t.events.map((e) => (e.actor === "user" ? { ...e, action: "message", content: e.action } : e)),
});

const samples = [
  session(
    ["agent", "find_member", { member_id: "M-1" }],
    ["tool", "find_member_result", { member_id: "M-1", waiver: "signed" }],
    ["agent", "load_kiln", { load_id: "L-1", member_id: "M-1", kg: "14" }],
    ["agent", "write_book", { member_id: "M-1", load_id: "L-1" }],
    ["agent", "check_glaze", { load_id: "L-1" }],
    ["user", "fire it"],
    ["agent", "start_firing", { load_id: "L-1", member_id: "M-1" }],
    ["agent", "close_firing", { load_id: "L-1" }],
    ["agent", "notify_member", { member_id: "M-1", load_id: "L-1" }],
    ["user", "please release my piece"],
    ["agent", "release_piece", { load_id: "L-1" }],
  ),
  session(
    ["agent", "find_member", { member_id: "M-2" }],
    ["tool", "find_member_result", { member_id: "M-2", waiver: "missing" }],
    ["agent", "load_kiln", { load_id: "L-2", member_id: "M-2", kg: "9" }],
    ["agent", "check_glaze", { load_id: "L-2" }],
    ["user", "fire it"],
    ["agent", "start_firing", { load_id: "L-2", member_id: "M-2" }],
    ["agent", "close_firing", { load_id: "L-2" }],
    ["agent", "find_member", { member_id: "M-3" }],
    ["tool", "find_member_result", { member_id: "M-3", waiver: "signed" }],
    ["agent", "write_book", { member_id: "M-2", load_id: "L-2" }],
    ["agent", "notify_member", { member_id: "M-2", load_id: "L-2" }],
  ),
  session(
    ["agent", "find_member", { member_id: "M-4" }],
    ["tool", "find_member_result", { member_id: "M-4", waiver: "signed" }],
    ["agent", "load_kiln", { load_id: "L-4", member_id: "M-4", kg: "20" }],
    ["agent", "check_glaze", { load_id: "L-4" }],
    ["agent", "write_book", { member_id: "M-4", load_id: "L-4" }],
    ["user", "fire it"],
    ["agent", "start_firing", { load_id: "L-4", member_id: "M-4" }],
    ["agent", "close_firing", { load_id: "L-4" }],
    ["agent", "notify_member", { member_id: "M-4", load_id: "L-4" }],
    ["user", "please release my piece"],
    ["agent", "release_piece", { load_id: "L-4" }],
    ["agent", "release_piece", { load_id: "L-5" }],
  ),
].map(chat);

const heavy = [{ action: "load_kiln", metadata: { kg: { gt: 12 } } }];

describe("a duty on a class of events, with a window of steps", () => {
  it("'every load of more than 12 kg, whether glazed or bare, shall be written … for the same member no later than the second event after the load'", () => {
    const body =
      "Requirement: every load of more than 12 kg, whether glazed or bare, shall be written in the kiln book for the same member no later than the second event after the load.";
    expect(checksOf(body, samples)).toEqual([
      { type: "pairing", each: heavy, followedBy: [{ action: "write_book" }], on: "metadata.member_id", within: 2 },
    ]);
  });

  it("'by the second event after' and a plain 'Every …' say the same window", () => {
    const body = "Every load of more than 12 kg must be written in the kiln book for the same member by the second event after the load.";
    expect(checksOf(body, samples)).toEqual([
      { type: "pairing", each: heavy, followedBy: [{ action: "write_book" }], on: "metadata.member_id", within: 2 },
    ]);
  });

  it("'A: Any load over 12 kg gets a glaze check (check_glaze) for that same load, no later than the third step after the load's recorded'", () => {
    const body =
      "A: Any load over 12 kg gets a glaze check (check_glaze) for that same load, no later than the third step after the load's recorded.";
    expect(checksOf(body, samples)).toEqual([
      { type: "pairing", each: heavy, followedBy: [{ action: "check_glaze" }], on: "metadata.load_id", within: 3 },
    ]);
  });
});

describe("the act the words name, not a neighbour", () => {
  it("'never begins a firing unless …' is about `start_firing`, not `close_firing`", () => {
    const body = "Cone never begins a firing unless the latest lookup of that member shows the waiver as signed.";
    const [check] = checksOf(body, samples);
    expect(check).toMatchObject({ type: "condition", each: [{ action: "start_firing" }] });
  });

  it("'You'll hear from us … no later than the second step after the firing is recorded as complete. A message about another load doesn't count.'", () => {
    const body =
      "You'll hear from us about your load no later than the second step after the firing is recorded as complete. A message about another load, even to the same member, doesn't count.";
    expect(checksOf(body, samples)).toEqual([
      {
        type: "pairing",
        each: [{ action: "close_firing" }],
        followedBy: [{ action: "notify_member" }],
        within: 2,
        on: "metadata.load_id",
      },
    ]);
  });
});

describe("a person's words before each act, asked again for each one", () => {
  it(`'We won't release a piece unless you tell us, in this chat and before each release, "please release my piece"'`, () => {
    const body = 'We won\'t release a piece unless you tell us, in this chat and before each release, "please release my piece".';
    expect(checksOf(body, samples)).toEqual([
      {
        type: "ordering",
        first: [{ actor: "user", content: { matches: "\\bplease\\s+release\\s+my\\s+piece\\b", flags: "i" } }],
        before: [{ action: "release_piece" }],
        fresh: true,
      },
    ]);
  });

  it("'Every firing needs the member's own go-ahead.' asks a fresh one, and no firing of its own", () => {
    const body = 'Every firing needs the member\'s own go-ahead. Before every `start_firing`, the member types "fire it" in the chat.';
    expect(checksOf(body, samples)).toEqual([
      {
        type: "ordering",
        first: [{ actor: "user", content: { matches: "\\bfire\\s+it\\b", flags: "i" } }],
        before: [{ action: "start_firing" }],
        fresh: true,
      },
    ]);
  });

  it("'One firing, one go-ahead' after the words makes the ordering fresh", () => {
    const body = 'A firing is started only after the member has typed "fire it". One firing, one go-ahead.';
    expect(checksOf(body, samples)).toEqual([
      {
        type: "ordering",
        first: [{ actor: "user", content: { matches: "\\bfire\\s+it\\b", flags: "i" } }],
        before: [{ action: "start_firing" }],
        fresh: true,
      },
    ]);
  });
});
