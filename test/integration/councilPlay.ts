import type { CouncilScriptOptions } from '../support/councilScript';
import type { FixtureApi } from './fixture/src/api';
import { councilResponder, stepOf, type StepOverride } from './fixture/src/councilPlayer';

export { stepOf } from './fixture/src/councilPlayer';

/** Makes the fixture's models play the scripted council; `override` may answer a step differently. */
export function playCouncil(api: FixtureApi, options: CouncilScriptOptions = {}, override?: StepOverride): void {
  api.setResponder(councilResponder(options, override));
}

/** The steps the council asked the models for, in order. */
export function stepsCalled(api: FixtureApi): string[] {
  return api.requests().map(stepOf);
}
