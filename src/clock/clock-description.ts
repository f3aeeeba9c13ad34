/** The clock as the control API shows it (`GET /_mock/clock`); its schema is the control API's (src/schemas/control-answers.ts). */
export type { ClockDescription } from '../schemas';
