/**
 * Type-level tests of the codegen builder, checked by test/codegen/code.test.ts
 * (and by `npm run typecheck`): each `@ts-expect-error` line must be an error,
 * or the directive itself is reported as unused. Never called.
 */
import { code, lit, name, type Code } from "../../compiler/codegen/code.js";

export function spliceAttempts(userText: string, piece: Code): Code[] {
  return [
    // @ts-expect-error a string is not Code: user text reaches code only through lit()
    code`f(${userText})`,
    // @ts-expect-error nor is a string built from Code
    code`f(${`${piece}`})`,
    // @ts-expect-error a string is not Code even when it is passed on as the whole result
    userText as string satisfies Code,
    // @ts-expect-error identifier prefixes are literals written in the generator, never a string variable
    name(userText, 0),
    // the allowed holes
    code`f(${lit(userText)}, ${piece}, ${1}, ${true}, ${name("first", 0)})`,
  ];
}
