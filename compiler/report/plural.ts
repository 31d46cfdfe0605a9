/** The word for `count` things: `singular` for exactly one, else `pluralForm` (default: singular + "s"). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}
