/* Wine 8.0's taskkill.exe refuses /T, which tool-tester uses to end a process and what it started
   (src/runtime/process-tree.ts). This stand-in takes `taskkill [/T] [/F] /PID n ...`: with /T it
   ends the processes whose parent id leads back to n (started after their parent: Windows reuses
   ids and keeps a dead parent's id in its children), children first, then n. Wine only. */
#include <windows.h>
#include <tlhelp32.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_ROWS 8192
static struct { DWORD id, parent; ULONGLONG created; } rows[MAX_ROWS];
static int row_count;

static ULONGLONG creation_time(DWORD id) {
  FILETIME created, exited, kernel, user;
  ULONGLONG at = 0;
  HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, id);
  if (process == NULL) return 0;
  if (GetProcessTimes(process, &created, &exited, &kernel, &user))
    at = ((ULONGLONG)created.dwHighDateTime << 32) | created.dwLowDateTime;
  CloseHandle(process);
  return at;
}

static void read_table(void) {
  PROCESSENTRY32W entry = { .dwSize = sizeof entry };
  HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  row_count = 0;
  if (snapshot == INVALID_HANDLE_VALUE) return;
  for (BOOL more = Process32FirstW(snapshot, &entry); more && row_count < MAX_ROWS; more = Process32NextW(snapshot, &entry)) {
    rows[row_count].id = entry.th32ProcessID;
    rows[row_count].parent = entry.th32ParentProcessID;
    rows[row_count].created = creation_time(entry.th32ProcessID);
    row_count++;
  }
  CloseHandle(snapshot);
}

static BOOL end_process(DWORD id) {
  HANDLE process = OpenProcess(PROCESS_TERMINATE, FALSE, id);
  BOOL ended;
  if (process == NULL) return FALSE;
  ended = TerminateProcess(process, 1);
  CloseHandle(process);
  return ended;
}

static void end_children(DWORD id, ULONGLONG created, int depth) {
  if (depth > 100) return;
  for (int i = 0; i < row_count; i++) {
    if (rows[i].parent != id || rows[i].id == id || rows[i].created < created) continue;
    end_children(rows[i].id, rows[i].created, depth + 1);
    if (end_process(rows[i].id)) printf("SUCCESS: ended PID %lu (child of PID %lu).\n", rows[i].id, id);
  }
}

int main(int argc, char **argv) {
  int tree = 0, status = 0, named = 0;
  for (int i = 1; i < argc; i++)
    if (_stricmp(argv[i], "/T") == 0) tree = 1;
  read_table();
  for (int i = 1; i + 1 < argc; i++) {
    if (_stricmp(argv[i], "/PID") != 0) continue;
    DWORD id = strtoul(argv[++i], NULL, 10);
    named = 1;
    if (tree) end_children(id, creation_time(id), 0);
    if (end_process(id)) printf("SUCCESS: ended PID %lu.\n", id);
    else { fprintf(stderr, "ERROR: no process with PID %lu.\n", id); status = 128; }
  }
  if (!named) { fprintf(stderr, "ERROR: usage: taskkill [/T] [/F] /PID n\n"); return 1; }
  return status;
}
