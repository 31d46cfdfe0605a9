/** prettier, pinned options: judge.ts layout must not depend on a user's prettier config. */
import { format } from "prettier";

export function formatJudgeTs(code: string): Promise<string> {
  return format(code, { parser: "typescript", printWidth: 100, semi: true, singleQuote: false, trailingComma: "all" });
}
