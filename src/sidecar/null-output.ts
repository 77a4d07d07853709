/**
 * Whether a descriptor is the null device, where what is written is thrown away. Node opens
 * /dev/null in place of a standard descriptor closed at its start (`>&-`), so a sidecar whose
 * stdout was closed writes every entry into it, counts it delivered and saves its position.
 */
import fs from 'node:fs';

export function isNullDevice(fd: number): boolean {
  try {
    const target = fs.fstatSync(fd);
    return target.isCharacterDevice() && target.rdev === fs.statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}
