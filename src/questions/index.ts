// The questions domain's face: what other folders may use of it. They import this file, never its stores.
export {
  deleteWaiverAnswers,
  insertWaiverAnswers,
  listActivityQuestions,
  questionsByActivity,
  replaceWaiverAnswers,
  timeslotsAskingRequired,
  waiverAnswersOf,
  type QuestionRow,
} from './store.js';
export { findAnsweredFile, findUploadSummaries, keepBookingFiles, type UploadRow } from './upload-store.js';
