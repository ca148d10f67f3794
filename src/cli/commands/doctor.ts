import { writeStdout } from '../output/stdout.ts';
import { describeContainment } from '../../supervision/containment-report.ts';
import { packageVersion } from '../package-version.ts';

/** Options of `hookwire doctor`. */
export interface DoctorOptions {
  readonly json?: boolean;
}

/**
 * `hookwire doctor`: what this machine gives hookwire — versions, the spawn helper in use (native
 * or Node) and the process containment in force, with its guarantees. Always exits 0.
 */
export function doctorCommand(options: DoctorOptions): Promise<number> {
  const containment = describeContainment();
  const report = {
    hookwire: packageVersion(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    containment,
  };
  if (options.json === true) {
    writeStdout(JSON.stringify(report, null, 2) + '\n');
    return Promise.resolve(0);
  }
  const lines = [
    `hookwire ${report.hookwire}, node ${report.node}, ${report.platform}`,
    `spawn helper: ${containment.spawnHelper}${containment.nativeHelperPath === undefined ? ' (the native helper is not built: no C compiler at install, or HOOKWIRE_SPAWN_HELPER=node)' : ` (${containment.nativeHelperPath})`}`,
    `containment: ${containment.escapees}${containment.subreaper ? ', subreaper' : ''}${containment.reaper ? ', reaper above every process' : ''}, helper outlives hookwire`,
    ...containment.guarantees.map((line) => `  - ${line}`),
  ];
  writeStdout(lines.join('\n') + '\n');
  return Promise.resolve(0);
}
