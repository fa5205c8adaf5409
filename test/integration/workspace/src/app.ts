import { add } from './util/math';
export function main(): number {
  return add(1, 2);
}
