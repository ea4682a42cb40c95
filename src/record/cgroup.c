// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload's cgroup (record --cgroup): made with its memory limit,
 * noted in REGISTRY_DIR so that the next run removes it after a recorder
 * killed with SIGKILL, and removed with what CMD left in it.
 */
#include "record-local.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Each recorder that creates a cgroup notes it in <dir>/<pid>, so the next
 * run can remove the cgroup of a recorder killed with SIGKILL. */
#define REGISTRY_DIR "/run/reclaim-replay"

/*
 * Remove the cgroup @dir and the cgroups a workload made inside it, killing
 * the tasks left in them (SIGKILL: the cgroup is the recorder's, and its
 * workload has ended).  Returns 0, or -1 with errno when @dir stays.
 */
static int kill_and_rmdir(const char *dir)
{
	char path[1500];
	struct dirent *de;
	DIR *d;
	FILE *f;
	int pid;

	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		kill_and_rmdir(path);
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	for (int i = 0; i < 50; i++) {
		bool any = false;

		f = fopen(path, "r");
		if (!f)
			break;
		while (fscanf(f, "%d", &pid) == 1) {
			kill(pid, SIGKILL);
			any = true;
		}
		fclose(f);
		if (!any && (!rmdir(dir) || errno == ENOENT))
			return 0;
		usleep(20000);
	}
	return rmdir(dir) && errno != ENOENT ? -1 : 0;
}

/* Remove the cgroups of recorders that died without cleaning up. */
void rr_rec_remove_stale_cgroups(void)
{
	DIR *d = opendir(REGISTRY_DIR);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[600], dir[1100];
		pid_t pid = (pid_t)atoi(de->d_name);
		FILE *f;

		if (pid <= 0 || !kill(pid, 0) || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), REGISTRY_DIR "/%s", de->d_name);
		f = fopen(path, "r");
		if (f) {
			if (fgets(dir, sizeof(dir), f)) {
				dir[strcspn(dir, "\n")] = 0;
				if (dir[0] == '/')
					kill_and_rmdir(dir);
			}
			fclose(f);
		}
		unlink(path);
	}
	closedir(d);
}

static void register_cgroup(const char *dir, bool add)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), REGISTRY_DIR "/%d", (int)getpid());
	if (!add) {
		unlink(path);
		return;
	}
	mkdir(REGISTRY_DIR, 0700);
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", dir);
		fclose(f);
	}
}

int rr_rec_write_file(const char *dir, const char *file, const char *value, struct rr_error *err)
{
	char path[1500];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, value, strlen(value)) < 0) {
		rr_error_set(err, path, "cannot write '%s': %s", value, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int rr_rec_make_cgroup(struct rec *r)
{
	char v[64];

	if (strchr(r->o->cgroup, '/') || !strcmp(r->o->cgroup, "..") || !strcmp(r->o->cgroup, ".")) {
		rr_error_set(r->err, r->o->cgroup, "--cgroup takes a plain name, not a path");
		return -1;
	}
	if (strlen(r->o->cgroup) > 200) {
		rr_error_set(r->err, r->o->cgroup, "--cgroup name longer than 200 characters");
		return -1;
	}
	if (r->fs.self_problem[0]) {
		rr_error_set(r->err, r->fs.root, "--cgroup: cannot place the cgroup below our own: %s",
			     r->fs.self_problem);
		return -1;
	}
	snprintf(r->cgroup_dir, sizeof(r->cgroup_dir), "%.1099s/%.200s", r->fs.self, r->o->cgroup);
	if (mkdir(r->cgroup_dir, 0755)) {
		rr_error_set(r->err, r->cgroup_dir, "cannot create the cgroup: %s", strerror(errno));
		return -1;
	}
	r->cgroup_made = true;
	register_cgroup(r->cgroup_dir, true);
	if (r->o->memory_max_bytes) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)r->o->memory_max_bytes);
		if (rr_rec_write_file(r->cgroup_dir, r->fs.version == 1 ? "memory.limit_in_bytes"
				      : "memory.max", v, r->err))
			return -1;
	}
	if (r->o->proactive_bytes && r->fs.version != 2) {
		rr_error_set(r->err, r->cgroup_dir,
			     "--proactive needs cgroup v2: memory.reclaim does not exist on v1");
		return -1;
	}
	if (r->o->swappiness >= 0) {
		if (r->fs.version != 1) {
			rr_error_set(r->err, r->cgroup_dir,
				     "--swappiness needs cgroup v1 (v2 has no per-cgroup swappiness)");
			return -1;
		}
		snprintf(v, sizeof(v), "%d", r->o->swappiness);
		if (rr_rec_write_file(r->cgroup_dir, "memory.swappiness", v, r->err))
			return -1;
	}
	return 0;
}

void rr_rec_remove_cgroup(struct rec *r)
{
	if (!r->cgroup_made)
		return;
	/* CMD has ended; what it left behind (a daemon, cgroups it made
	 * inside, tasks still exiting) goes with the cgroup */
	if (!kill_and_rmdir(r->cgroup_dir)) {
		r->cgroup_made = false;
		register_cgroup(NULL, false);
		return;
	}
	fprintf(stderr, "reclaim-replay: warning: %s: cannot remove the cgroup: %s\n",
		r->cgroup_dir, strerror(errno));
}
