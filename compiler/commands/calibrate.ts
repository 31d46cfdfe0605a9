/** `calibrate`: labeled cases against the compiled judge; exit 1 on any disagreement or error. */
import { calibrate, calibrationPassed, renderCalibrationTotals, renderComparison } from "../calibrate.js";
import { readCases } from "../inputs.js";
import { loadJudge } from "../load.js";

export async function runCalibrateCommand(
  judgePath: string,
  files: readonly string[],
  options: { json?: boolean; verify?: boolean },
): Promise<number> {
  const judge = await loadJudge(judgePath);
  const text = options.json !== true;
  const result = await calibrate(judge, readCases(files), {
    verify: options.verify !== false,
    onCase: (c) => {
      if (typeof c === "string") process.stderr.write(`error: ${c}\n`);
      else if (text) process.stdout.write(`${renderComparison(c)}\n`);
    },
  });
  if (text) process.stdout.write(`${renderCalibrationTotals(result.totals)}\n`);
  else {
    const { comparisons, judgments, totals } = result;
    process.stdout.write(`${JSON.stringify({ comparisons, judgments, totals }, null, 2)}\n`);
  }
  return calibrationPassed(result) ? 0 : 1;
}
