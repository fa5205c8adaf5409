/** Escapes a character for use inside a RegExp. */
function escape(char: string): string {
  return /[.+^${}()|[\]\\]/.test(char) ? `\\${char}` : char;
}

/**
 * A RegExp for a workspace glob: `**` spans folders, `*` and `?` stay within one segment, `{a,b}` alternates.
 * Enough for the patterns a model writes (`src/**\/*.ts`, `*.{md,json}`); matching is case-sensitive.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] ?? '';
    if (char === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') source += '(?:';
    else if (char === '}') source += ')';
    else if (char === ',') source += '|';
    else source += escape(char);
  }
  return new RegExp(`^${source}$`);
}
