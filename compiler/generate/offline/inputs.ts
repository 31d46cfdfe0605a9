/**
 * The library's input to the offline drafter, in the form its readers assume (issue 25).
 *
 * The CLI validates every sample before drafting, so metadata values arrive as strings (the runtime
 * compares them as strings: FORMATS.md §2). `draftOffline` is also a library entry, and a caller may
 * hand it trajectories straight from JSON, with `amount: 700`, `urgent: true` or `note: null`, and a
 * vocabulary built from them. The readers call string methods on those values (the lexicon lowers
 * them to compare with words), so such a value crashed the draft with a TypeError naming no sample.
 * Here samples go through the runtime's own validation (which converts a value with String(v) as the
 * judge would, and names the field of a malformed event), and the vocabulary's example values are
 * converted the same way, so a vocabulary built from the raw samples still matches them.
 */
import { TrajectoryError, validateTrajectory } from "../../../runtime/trajectory.js";
import type { Trajectory } from "../../../runtime/types.js";
import type { Vocabulary } from "../types.js";

/** Each sample in normal form; a malformed one is an error naming its position, id and field. */
export function normalSamples(samples: readonly unknown[]): Trajectory[] {
  return samples.map((sample, index) => {
    try {
      return validateTrajectory(sample);
    } catch (error) {
      if (!(error instanceof TrajectoryError)) throw error;
      const id = typeof sample === "object" && sample !== null ? (sample as { id?: unknown }).id : undefined;
      const named = typeof id === "string" && id !== "" ? ` (id ${JSON.stringify(id)})` : "";
      throw new TrajectoryError(
        `samples[${index}]${named}${error.field === "" ? "" : `.${error.field}`}`,
        error.message.slice(error.field.length).trim(),
      );
    }
  });
}

/** The vocabulary with every example value a string, as String(v) gives it (a value of a normal vocabulary is kept as is). */
export function normalVocabulary(vocabulary: Vocabulary): Vocabulary {
  const text = (value: unknown) => (typeof value === "string" ? value : String(value));
  const loose = (values: readonly unknown[]) => values.some((v) => typeof v !== "string");
  const keysLoose = vocabulary.metadataKeys.some((k) => loose(k.values));
  const actionsLoose = (vocabulary.actionMetadata ?? []).some((m) => loose(m.values.map((v) => v.value)));
  if (!keysLoose && !actionsLoose) return vocabulary;
  return {
    ...vocabulary,
    metadataKeys: vocabulary.metadataKeys.map((k) => ({ ...k, values: k.values.map(text) })),
    ...(vocabulary.actionMetadata === undefined
      ? {}
      : {
          actionMetadata: vocabulary.actionMetadata.map((m) => ({ ...m, values: m.values.map((v) => ({ ...v, value: text(v.value) })) })),
        }),
  };
}
