/** The last instruction of the final-answer prompt; scripted test models and the bench recognise the request by it. */
export const WRITE_ANSWER_TASK = "Write the council's consolidated answer now, as Markdown prose for the user.";
