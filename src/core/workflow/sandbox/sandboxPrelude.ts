/**
 * The script that runs inside every fresh QuickJS context before the user's code. It evaluates to a helpers object
 * that only the host holds (it is never a global), and it puts work caps on built-ins.
 *
 * Why the caps: QuickJS checks its interrupt handler only every 10,000 "steps" (calls and backward jumps), and one
 * built-in call is one step however long it runs. Without help, `while (true) 'x'.repeat(1e6)` runs for seconds
 * past its CPU limit and a sparse array (`a.length = 2 ** 32 - 1; a.indexOf(1)`) loops in C for minutes — all of
 * it synchronous, on the extension host's thread. So:
 * - `String.prototype.repeat/padStart/padEnd` refuse results longer than MAX_STRING (1 MiB of characters);
 * - `Array.prototype` methods whose work grows with the array's length refuse lengths above MAX_ARRAY (which only
 *   sparse arrays and array-likes reach: a dense array that long does not fit in the memory limit anyway);
 * - those wrappers, and the other built-ins whose work grows with their input (string searches and transforms,
 *   typed-array methods, `JSON`, `Object.keys`...), "charge" the interrupt counter in proportion to that work by
 *   running a tiny loop (one step per iteration, ~15 ns), so the CPU limit is checked about as often in a loop of
 *   heavy built-in calls as in plain code.
 * What cannot be wrapped (spread `[...a]`, `{...o}`, string `+`) stays bounded by the memory limit.
 *
 * The helpers: `defineGlobal(name, json)` (a deep-frozen copy, read-only global), `defineFunction(name, raw)` (a
 * global whose arguments go to the host as one JSON string and whose result comes back as one, or as a promise of
 * one), `finish(value)` (the run's result as JSON text; throws when it is not JSON), `unobserved()` (the numbers, counted
 * from 0 over every host call, of the asynchronous ones the script never awaited or looked at, as JSON).
 */

/** The longest string `repeat`, `padStart` and `padEnd` may build, in UTF-16 code units. */
const MAX_STRING_LENGTH = 1024 * 1024;
/** How deep a value a script may stringify, return or hand to the host (workflow data is a few levels deep). */
const MAX_JSON_DEPTH = 64;
/** The longest array (or array-like) the length-driven `Array.prototype` methods accept. */
const MAX_ARRAY_LENGTH = 4 * 1024 * 1024;

export const SANDBOX_PRELUDE = String.raw`(() => {
  'use strict';
  const MAX_STRING = ${MAX_STRING_LENGTH};
  const MAX_ARRAY = ${MAX_ARRAY_LENGTH};
  const { defineProperty, getOwnPropertyDescriptor, getOwnPropertyNames, freeze, isFrozen, keys } = Object;
  const { apply } = Reflect;
  const { isArray } = Array;
  const { parse, stringify } = JSON;
  const { floor, min } = Math;
  const promiseThen = Promise.prototype.then;
  const spreadable = Symbol.isConcatSpreadable;
  const MapCtor = Map;
  const { get: mapGet, set: mapSet } = Map.prototype;
  const WeakSetCtor = WeakSet;
  const { has: seenHas, add: seenAdd } = WeakSet.prototype;

  // One interrupt-counter step per iteration: makes QuickJS look at the CPU limit in proportion to the work done.
  const charge = units => { let n = units; while (n-- > 0); };
  const toLength = value => { const n = +value; return n > 0 ? min(floor(n), 9007199254740991) : 0; };
  const lengthOf = target => (target === null || target === undefined ? 0 : toLength(target.length));

  const wrap = (owner, name, guard) => {
    const original = owner[name];
    const descriptor = getOwnPropertyDescriptor(owner, name);
    if (typeof original !== 'function' || !descriptor) return;
    const wrapper = { [name](...args) { return guard(original, this, args); } }[name];
    defineProperty(wrapper, 'length', { value: original.length });
    defineProperty(owner, name, { ...descriptor, value: wrapper });
  };

  // Strings: the result's size is known before the work starts.
  const refuse = what => { throw new RangeError(what + ' would build a string larger than 1 MiB (' + MAX_STRING + ' characters); scripts may not.'); };
  wrap(String.prototype, 'repeat', (original, self, args) => {
    const size = String(self).length * (+args[0] || 0);
    if (size > MAX_STRING) refuse('repeat()');
    charge(size >> 8);
    return apply(original, self, args);
  });
  for (const name of ['padStart', 'padEnd']) {
    wrap(String.prototype, name, (original, self, args) => {
      const size = toLength(args[0]);
      if (size > MAX_STRING) refuse(name + '()');
      charge(size >> 8);
      return apply(original, self, args);
    });
  }
  // Other string methods whose work grows with the string: charge by its length (1 step per KiB) and result.
  for (const name of ['indexOf', 'lastIndexOf', 'includes', 'startsWith', 'endsWith', 'search', 'match', 'matchAll', 'replace', 'replaceAll',
    'split', 'concat', 'slice', 'substring', 'substr', 'trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase', 'toLocaleLowerCase',
    'toLocaleUpperCase', 'normalize', 'localeCompare', 'isWellFormed', 'toWellFormed']) {
    wrap(String.prototype, name, (original, self, args) => {
      charge(lengthOf(self) >> 10);
      const result = apply(original, self, args);
      if (typeof result === 'string' || isArray(result)) charge(result.length >> 8);
      return result;
    });
  }

  // Arrays: methods whose work grows with the length; a huge sparse array or array-like is refused.
  const arrayLength = (self, name) => {
    const length = lengthOf(self);
    if (length > MAX_ARRAY) throw new RangeError('Array.prototype.' + name + '() on ' + length + ' elements: scripts may use arrays of at most ' + MAX_ARRAY + ' elements.');
    return length;
  };
  for (const name of ['copyWithin', 'every', 'fill', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'forEach',
    'includes', 'indexOf', 'join', 'lastIndexOf', 'map', 'reduce', 'reduceRight', 'reverse', 'shift', 'slice', 'some', 'sort', 'splice',
    'toLocaleString', 'toReversed', 'toSorted', 'toSpliced', 'unshift', 'with']) {
    wrap(Array.prototype, name, (original, self, args) => {
      charge(arrayLength(self, name) >> 7);
      const result = apply(original, self, args);
      if (typeof result === 'string') charge(result.length >> 8);
      return result;
    });
  }
  wrap(Array.prototype, 'concat', (original, self, args) => {
    let total = arrayLength(self, 'concat');
    for (const item of args) {
      total += item !== null && typeof item === 'object' && (item[spreadable] !== undefined ? item[spreadable] : isArray(item)) ? lengthOf(item) : 1;
      if (total > MAX_ARRAY) throw new RangeError('Array.prototype.concat() would build ' + total + ' elements: scripts may use arrays of at most ' + MAX_ARRAY + ' elements.');
    }
    charge(total >> 7);
    return apply(original, self, args);
  });
  // flat() walks nested arrays natively, so a huge sparse array one level down would escape the check: it is
  // done here in script code instead (checked like any loop), each nested array held to the same limit.
  const flatten = (source, depth, out) => {
    const length = arrayLength(source, 'flat');
    for (let i = 0; i < length; i++) {
      if (!(i in source)) continue;
      const item = source[i];
      if (depth > 0 && isArray(item)) flatten(item, depth - 1, out);
      else out.push(item);
    }
    return out;
  };
  wrap(Array.prototype, 'flat', (original, self, args) => {
    const depth = args[0] === undefined ? 1 : +args[0] || 0;
    return flatten(Object(self), depth, []);
  });
  wrap(Array.prototype, 'flatMap', (original, self, args) => {
    if (typeof args[0] !== 'function') return apply(original, self, args);
    const mapped = apply(Array.prototype.map, self, args);
    return flatten(mapped, 1, []);
  });
  // Iteration: a spread (\`[...a]\`, \`f(...a)\`) of an array copies it natively in one step; charged by its length.
  const iterators = owner => {
    for (const name of ['values', 'keys', 'entries']) {
      wrap(owner, name, (original, self, args) => {
        charge(lengthOf(self) >> 7);
        return apply(original, self, args);
      });
    }
    defineProperty(owner, Symbol.iterator, { ...getOwnPropertyDescriptor(owner, Symbol.iterator), value: owner.values });
  };
  iterators(Array.prototype);

  wrap(Array, 'from', (original, self, args) => {
    const result = apply(original, self, args);
    charge(lengthOf(result) >> 7);
    return result;
  });

  // Typed arrays are bounded by memory, but a loop of calls over a large one must still be checked.
  const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
  for (const name of ['copyWithin', 'every', 'fill', 'filter', 'find', 'findIndex', 'findLast', 'findLastIndex', 'forEach', 'includes',
    'indexOf', 'join', 'lastIndexOf', 'map', 'reduce', 'reduceRight', 'reverse', 'set', 'slice', 'some', 'sort', 'toLocaleString',
    'toReversed', 'toSorted', 'with']) {
    wrap(typedArrayPrototype, name, (original, self, args) => {
      charge(lengthOf(self) >> 9);
      return apply(original, self, args);
    });
  }
  iterators(typedArrayPrototype);

  // JSON and whole-object copies: charge by the size of what was read or built.
  wrap(JSON, 'parse', (original, self, args) => {
    charge(String(args[0]).length >> 8);
    return apply(original, self, args);
  });
  // JSON.stringify recurses in the engine's native code, deeper than its own stack check sees, and a value nested a few
  // thousand levels overflows the host's stack. Anything nested deeper than MAX_DEPTH is refused first, walked with
  // an explicit stack (never recursively) and only with the built-ins captured above, so a script cannot defeat it.
  const MAX_DEPTH = ${MAX_JSON_DEPTH};
  const checkDepth = (root, what) => {
    if (root === null || typeof root !== 'object') return;
    const seen = new WeakSetCtor();
    const nodes = new MapCtor();
    const depths = new MapCtor();
    apply(mapSet, nodes, [0, root]);
    apply(mapSet, depths, [0, 1]);
    let top = 1;
    while (top > 0) {
      top--;
      const node = apply(mapGet, nodes, [top]);
      const depth = apply(mapGet, depths, [top]);
      if (apply(seenHas, seen, [node])) continue;
      apply(seenAdd, seen, [node]);
      if (depth > MAX_DEPTH)
        throw new RangeError(what + ' is nested more than ' + MAX_DEPTH + ' levels deep, deeper than a script may hand on: flatten it.');
      const names = getOwnPropertyNames(node);
      for (let i = 0; i < names.length; i++) {
        const child = node[names[i]];
        if (child !== null && typeof child === 'object') {
          apply(mapSet, nodes, [top, child]);
          apply(mapSet, depths, [top, depth + 1]);
          top++;
        }
      }
    }
  };

  wrap(JSON, 'stringify', (original, self, args) => {
    checkDepth(args[0], 'The value given to JSON.stringify()');
    const result = apply(original, self, args);
    if (typeof result === 'string') charge(result.length >> 8);
    return result;
  });
  for (const name of ['keys', 'values', 'entries', 'getOwnPropertyNames', 'getOwnPropertySymbols', 'fromEntries']) {
    wrap(Object, name, (original, self, args) => {
      const result = apply(original, self, args);
      if (isArray(result)) charge(result.length >> 7);
      return result;
    });
  }
  wrap(Object, 'assign', (original, self, args) => {
    for (let i = 1; i < args.length; i++) if (args[i] !== null && typeof args[i] === 'object') charge(keys(args[i]).length >> 6);
    return apply(original, self, args);
  });

  const deepFreeze = value => {
    if (value !== null && typeof value === 'object' && !isFrozen(value)) {
      freeze(value);
      for (const key of getOwnPropertyNames(value)) deepFreeze(value[key]);
    }
    return value;
  };
  const readOnly = (name, value) => defineProperty(globalThis, name, { value, writable: false, enumerable: false, configurable: false });

  // A JSON-only result: a function, symbol, BigInt or undefined anywhere inside is refused, not silently dropped.
  const strict = function (key, value) {
    const type = typeof value;
    if (type === 'function' || type === 'symbol' || type === 'undefined' || type === 'bigint') {
      const where = key === '' ? 'the value' : 'the value at ' + stringify(key);
      throw new TypeError(where + ' is ' + (type === 'undefined' ? 'undefined' : 'a ' + type) + ', which JSON cannot hold');
    }
    return value;
  };

  // A host call's promise notes whether the script ever looked at it: await, then, catch, finally and Promise.all
  // all go through its own then (its own constructor keeps await from taking the native shortcut). The host numbers
  // every call in the same order; a call that failed and was never looked at is reported by the host instead of
  // being lost (see unobserved).
  const PromiseCtor = Promise;
  const observed = new MapCtor();
  let nextCall = 0;
  const tracked = (call, promise) => {
    apply(mapSet, observed, [call, false]);
    const result = new PromiseCtor((resolve, reject) => apply(promiseThen, promise, [resolve, reject]));
    defineProperty(result, 'then', {
      value: function then(onFulfilled, onRejected) {
        apply(mapSet, observed, [call, true]);
        return apply(promiseThen, this, [onFulfilled, onRejected]);
      },
    });
    defineProperty(result, 'constructor', { value: undefined });
    // A rejection nobody looks at is the host's to report, not an unhandled one.
    apply(promiseThen, result, [undefined, () => undefined]);
    return freeze(result);
  };

  return freeze({
    defineGlobal(name, json) { readOnly(name, deepFreeze(parse(json))); },
    defineFunction(name, raw) {
      const fn = { [name](...args) {
        checkDepth(args, 'An argument of ' + name + '()');
        const text = stringify(args);
        const call = nextCall++;
        const reply = raw(text);
        if (typeof reply === 'string') return parse(reply);
        return tracked(call, apply(promiseThen, reply, [parse]));
      } }[name];
      readOnly(name, fn);
    },
    unobserved() {
      let list = '';
      for (let call = 0; call < nextCall; call++)
        if (apply(mapGet, observed, [call]) === false) list += (list ? ',' : '') + call;
      return '[' + list + ']';
    },
    finish(value) {
      checkDepth(value, 'The value');
      return value === undefined ? 'null' : stringify(value, strict);
    },
  });
})()`;
