/** The marker a report line starts with in the test output (base64, so the host's log cannot reflow it). */
export const EVAL_REPORT_MARKER = 'COUNCIL-EVAL-REPORT:';
