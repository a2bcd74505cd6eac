import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

/** A bench helper script (in this folder) as a child process, asked over IPC: one command, one reply. */
export class IpcChild<Command extends { op: string }, Reply extends { op: string }> {
  private constructor(private readonly child: ChildProcess) {}

  static fork<C extends { op: string }, R extends { op: string }>(script: string): IpcChild<C, R> {
    const child = fork(join(__dirname, script), [], {
      execArgv: ['-r', join(__dirname, 'swc-register.js')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new IpcChild<C, R>(child);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  request<Op extends Reply['op']>(command: Command, expected: Op): Promise<Extract<Reply, { op: Op }>> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`${command.op}: exited with ${code}`));
      this.child.once('exit', onExit);
      this.child.once('message', (reply: Reply | { op: 'failed'; error: string }) => {
        this.child.off('exit', onExit);
        if (reply.op === expected) resolve(reply as Extract<Reply, { op: Op }>);
        else reject(new Error(`${command.op}: ${'error' in reply ? reply.error : reply.op}`));
      });
      this.child.send(command);
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
