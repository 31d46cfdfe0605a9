/**
 * Reading a judge.yaml: its text, decoded strictly. Light on purpose (no
 * parser): the loader reads the text to key the build cache before anything
 * is compiled.
 */
import { JudgeYamlError, type Diagnostic } from "../diagnostics.js";
import { describeInvalidUtf8, readUtf8File } from "../files/utf8.js";

/**
 * A judge.yaml file's text, decoded strictly: invalid UTF-8 is a located
 * JudgeYamlError like any other problem in the file, never a U+FFFD that
 * could make two different names one.
 */
export async function readJudgeYaml(path: string): Promise<string> {
  const decoded = await readUtf8File(path);
  if (decoded.ok) return decoded.text;
  const { invalid } = decoded;
  const diagnostic: Diagnostic = {
    file: path,
    line: invalid.line,
    col: invalid.col,
    path: "",
    severity: "error",
    message: describeInvalidUtf8(invalid),
    hint: "save the file as UTF-8",
  };
  throw new JudgeYamlError([diagnostic]);
}
