// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace.dat reader on libtracecmd.
 *
 * Design: the file is opened once; every buffer in it (the top-level buffer
 * and each instance, which is where a private tracefs instance lands after
 * `trace-cmd extract -B`) is iterated together by
 * tracecmd_iterate_events_multi(), which merges them by timestamp.  Field
 * offsets are resolved once per (tep, event id) into a small decoder table;
 * per record the reader only reads numbers at known offsets.  Unknown
 * events are skipped without decoding.
 */
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-utils.h>
#include <uthash.h>

/*
 * Exported by libtracecmd.so.1 but declared only in trace-cmd's private
 * header (lib/trace-cmd/include/private/trace-cmd-private.h).
 */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);

enum rr_field {
	F_ID, F_ITEM, F_VAL, F_FORCE, F_NEEDS_FLUSH,
	F_LRU, F_PRIORITY, F_NID, F_FLAGS,
	F_NR_REQUESTED, F_NR_SCANNED, F_NR_TAKEN, F_NR_RECLAIMED,
	F_NR_REFERENCED, F_NR_DEACTIVATED, F_NR_ACTIVATE0, F_NR_ACTIVATE1,
	F_ROOT, F_LEVEL, F_PID, F_STR,
	F__COUNT
};

struct decoder_key {
	const struct tep_handle *tep;
	int id;
};

struct decoder {
	struct decoder_key key;
	enum rr_event_type type;
	struct tep_event *event;
	struct tep_format_field *field[F__COUNT];
	UT_hash_handle hh;
};

struct rr_trace {
	char *path;
	struct tracecmd_input *handle;
	struct tracecmd_input **handles;
	int nr_handles;
	struct decoder *decoders;	/* uthash by (tep, id) */
	struct rr_trace_info info;
	/* iteration state */
	rr_event_cb cb;
	void *ctx;
	int cb_ret;
	uint64_t pending_lost;
};

struct event_desc {
	const char *system, *name;
	enum rr_event_type type;
	/* field names in enum rr_field order; "a|b" tries a then b */
	const char *fields[F__COUNT];
};

static const struct event_desc known_events[] = {
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin", RR_EV_MEMCG_RECLAIM_BEGIN, {0} },
	{ "vmscan", "mm_vmscan_memcg_reclaim_end", RR_EV_MEMCG_RECLAIM_END,
	  { [F_NR_RECLAIMED] = "nr_reclaimed" } },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_begin", RR_EV_SOFTLIMIT_BEGIN, {0} },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_end", RR_EV_SOFTLIMIT_END,
	  { [F_NR_RECLAIMED] = "nr_reclaimed" } },
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", RR_EV_DIRECT_BEGIN, {0} },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", RR_EV_DIRECT_END,
	  { [F_NR_RECLAIMED] = "nr_reclaimed" } },
	{ "vmscan", "mm_vmscan_node_reclaim_begin", RR_EV_NODE_RECLAIM_BEGIN,
	  { [F_NID] = "nid" } },
	{ "vmscan", "mm_vmscan_node_reclaim_end", RR_EV_NODE_RECLAIM_END,
	  { [F_NR_RECLAIMED] = "nr_reclaimed" } },
	{ "vmscan", "mm_vmscan_kswapd_wake", RR_EV_KSWAPD_WAKE, { [F_NID] = "nid" } },
	{ "vmscan", "mm_vmscan_kswapd_sleep", RR_EV_KSWAPD_SLEEP, { [F_NID] = "nid" } },
	{ "vmscan", "mm_vmscan_lru_isolate", RR_EV_LRU_ISOLATE,
	  { [F_NR_REQUESTED] = "nr_requested", [F_NR_SCANNED] = "nr_scanned",
	    [F_NR_TAKEN] = "nr_taken", [F_LRU] = "lru" } },
	{ "vmscan", "mm_vmscan_lru_shrink_inactive", RR_EV_SHRINK_INACTIVE,
	  { [F_NID] = "nid", [F_NR_SCANNED] = "nr_scanned",
	    [F_NR_RECLAIMED] = "nr_reclaimed", [F_PRIORITY] = "priority",
	    [F_FLAGS] = "reclaim_flags", [F_NR_ACTIVATE0] = "nr_activate0",
	    [F_NR_ACTIVATE1] = "nr_activate1" } },
	{ "vmscan", "mm_vmscan_lru_shrink_active", RR_EV_SHRINK_ACTIVE,
	  { [F_NID] = "nid", [F_NR_TAKEN] = "nr_taken",
	    [F_NR_REFERENCED] = "nr_referenced",
	    [F_NR_DEACTIVATED] = "nr_deactivated",
	    [F_PRIORITY] = "priority", [F_FLAGS] = "reclaim_flags" } },
	{ "vmscan", "mm_vmscan_write_folio", RR_EV_WRITE_FOLIO,
	  { [F_FLAGS] = "reclaim_flags" } },
	{ "vmscan", "mm_vmscan_writepage", RR_EV_WRITE_FOLIO,
	  { [F_FLAGS] = "reclaim_flags" } },
	{ "vmscan", "mm_shrink_slab_start", RR_EV_SLAB_START,
	  { [F_NID] = "nid", [F_PRIORITY] = "priority" } },
	{ "memcg", "mod_memcg_lruvec_state", RR_EV_MOD_LRUVEC,
	  { [F_ID] = "id", [F_ITEM] = "item", [F_VAL] = "val" } },
	{ "memcg", "count_memcg_events", RR_EV_COUNT_EVENTS,
	  { [F_ID] = "id", [F_ITEM] = "item", [F_VAL] = "val" } },
	{ "memcg", "memcg_flush_stats", RR_EV_FLUSH,
	  { [F_ID] = "id", [F_FORCE] = "force", [F_NEEDS_FLUSH] = "needs_flush" } },
	{ "cgroup", "cgroup_mkdir", RR_EV_CGROUP_MKDIR,
	  { [F_ROOT] = "root", [F_LEVEL] = "level", [F_ID] = "id", [F_STR] = "path" } },
	{ "cgroup", "cgroup_rmdir", RR_EV_CGROUP_RMDIR,
	  { [F_ROOT] = "root", [F_LEVEL] = "level", [F_ID] = "id", [F_STR] = "path" } },
	{ "cgroup", "cgroup_release", RR_EV_CGROUP_RELEASE,
	  { [F_ROOT] = "root", [F_LEVEL] = "level", [F_ID] = "id", [F_STR] = "path" } },
	{ "cgroup", "cgroup_attach_task", RR_EV_ATTACH,
	  { [F_ROOT] = "dst_root", [F_LEVEL] = "dst_level", [F_ID] = "dst_id",
	    [F_PID] = "pid", [F_STR] = "dst_path" } },
	{ "ftrace", "print", RR_EV_MARKER, { [F_STR] = "buf" } },
};

static const char *const type_names[RR_EV__COUNT] = {
	[RR_EV_NONE] = "none",
	[RR_EV_MEMCG_RECLAIM_BEGIN] = "mm_vmscan_memcg_reclaim_begin",
	[RR_EV_MEMCG_RECLAIM_END] = "mm_vmscan_memcg_reclaim_end",
	[RR_EV_SOFTLIMIT_BEGIN] = "mm_vmscan_memcg_softlimit_reclaim_begin",
	[RR_EV_SOFTLIMIT_END] = "mm_vmscan_memcg_softlimit_reclaim_end",
	[RR_EV_DIRECT_BEGIN] = "mm_vmscan_direct_reclaim_begin",
	[RR_EV_DIRECT_END] = "mm_vmscan_direct_reclaim_end",
	[RR_EV_NODE_RECLAIM_BEGIN] = "mm_vmscan_node_reclaim_begin",
	[RR_EV_NODE_RECLAIM_END] = "mm_vmscan_node_reclaim_end",
	[RR_EV_KSWAPD_WAKE] = "mm_vmscan_kswapd_wake",
	[RR_EV_KSWAPD_SLEEP] = "mm_vmscan_kswapd_sleep",
	[RR_EV_LRU_ISOLATE] = "mm_vmscan_lru_isolate",
	[RR_EV_SHRINK_INACTIVE] = "mm_vmscan_lru_shrink_inactive",
	[RR_EV_SHRINK_ACTIVE] = "mm_vmscan_lru_shrink_active",
	[RR_EV_WRITE_FOLIO] = "mm_vmscan_write_folio",
	[RR_EV_SLAB_START] = "mm_shrink_slab_start",
	[RR_EV_MOD_LRUVEC] = "mod_memcg_lruvec_state",
	[RR_EV_COUNT_EVENTS] = "count_memcg_events",
	[RR_EV_FLUSH] = "memcg_flush_stats",
	[RR_EV_CGROUP_MKDIR] = "cgroup_mkdir",
	[RR_EV_CGROUP_RMDIR] = "cgroup_rmdir",
	[RR_EV_CGROUP_RELEASE] = "cgroup_release",
	[RR_EV_ATTACH] = "cgroup_attach_task",
	[RR_EV_MARKER] = "print",
};

const char *rr_event_type_name(enum rr_event_type type)
{
	if (type < 0 || type >= RR_EV__COUNT)
		return "unknown";
	return type_names[type];
}

/* Build decoders for every known event present in @tep. */
static int add_decoders(struct rr_trace *t, struct tep_handle *tep)
{
	size_t i;
	int f;

	for (i = 0; i < sizeof(known_events) / sizeof(known_events[0]); i++) {
		const struct event_desc *d = &known_events[i];
		struct tep_event *ev = tep_find_event_by_name(tep, d->system, d->name);
		struct decoder_key key;
		struct decoder *dec;

		if (!ev)
			continue;
		memset(&key, 0, sizeof(key));
		key.tep = tep;
		key.id = ev->id;
		HASH_FIND(hh, t->decoders, &key, sizeof(key), dec);
		if (dec)
			continue;
		dec = calloc(1, sizeof(*dec));
		if (!dec)
			return -1;
		dec->key = key;
		dec->type = d->type;
		dec->event = ev;
		for (f = 0; f < F__COUNT; f++)
			if (d->fields[f])
				dec->field[f] = tep_find_field(ev, d->fields[f]);
		HASH_ADD(hh, t->decoders, key, sizeof(key), dec);
		t->info.events_known |= 1u << d->type;
	}
	return 0;
}

/*
 * Diagnostics of libtraceevent/libtracecmd ("bad page offset", ...).  The
 * libraries print through tep_vprint(), which they document as overridable:
 * collect them here instead of letting them reach stderr, and report them
 * as one warning line (src/cli) and in the JSON.
 */
static struct {
	unsigned int count;
	char first[200];
} lib_diag;

int tep_vprint(const char *name, enum tep_loglevel level, bool print_err,
	       const char *fmt, va_list ap)
{
	(void)print_err;
	if (level > TEP_LOG_WARNING)
		return 0;
	if (!lib_diag.count++) {
		int n = snprintf(lib_diag.first, sizeof(lib_diag.first), "%s: ",
				 name ? name : "libtraceevent");

		if (n > 0 && (size_t)n < sizeof(lib_diag.first))
			vsnprintf(lib_diag.first + n, sizeof(lib_diag.first) - (size_t)n, fmt, ap);
		n = (int)strlen(lib_diag.first);
		while (n > 0 && (lib_diag.first[n - 1] == '\n' || lib_diag.first[n - 1] == ' '))
			lib_diag.first[--n] = 0;
	}
	return 0;
}

static int has_magic(const char *path, struct rr_error *err)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a',
					       'c', 'i', 'n', 'g' };
	unsigned char buf[sizeof(magic)];
	struct stat st;
	ssize_t n;
	int fd;

	/* stat first: opening a FIFO would wait for a writer */
	if (stat(path, &st)) {
		rr_error_set(err, path, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		rr_error_set(err, path, "is a directory, not a trace file");
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		rr_error_set(err, path,
			     "not a regular file: a trace.dat is read with seeks; save it to a file first");
		return -1;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		rr_error_set(err, path, "cannot open: %s", strerror(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n != (ssize_t)sizeof(buf) || memcmp(buf, magic, sizeof(magic))) {
		rr_error_set(err, path,
			     "not a trace.dat file (no trace-cmd magic in the first bytes)");
		return -1;
	}
	return 0;
}

/* Open @path and every buffer instance in it, as the real open does. */
static int open_all(const char *path)
{
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	int n;

	if (!h)
		return -1;
	n = tracecmd_buffer_instances(h);
	for (int i = 0; i < n; i++) {
		struct tracecmd_input *in = tracecmd_buffer_instance_handle(h, i);

		if (!in) {
			tracecmd_close(h);
			return -1;
		}
		/* an instance handle holds a reference on its parent */
		tracecmd_close(in);
	}
	tracecmd_close(h);
	return 0;
}

/*
 * libtracecmd 1.3 crashes on some damaged files while opening them (a
 * double free on a header cut short, a SIGSEGV on a v6 file truncated by a
 * byte).  Open the file once in a child first: a child that dies means the
 * file is corrupt, and the real open is not attempted.
 */
static int probe_open(const char *path, struct rr_error *err)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;	/* no probe: proceed */
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		if (devnull >= 0) {	/* silence sanitizer reports in the child */
			dup2(devnull, STDERR_FILENO);
			dup2(devnull, STDOUT_FILENO);
		}
		_exit(open_all(path) ? 3 : 0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3))
		return 0;
	if (WIFSIGNALED(status))
		rr_error_set(err, path, "corrupt or truncated trace file (the trace reader "
			     "library died with signal %d opening it)", WTERMSIG(status));
	else
		rr_error_set(err, path, "corrupt or truncated trace file (the trace reader "
			     "library failed opening it, status %d)", WEXITSTATUS(status));
	return -1;
}

unsigned int rr_trace_lib_warnings(const char **first)
{
	if (first)
		*first = lib_diag.first;
	return lib_diag.count;
}

struct rr_trace *rr_trace_open(const char *path, struct rr_error *err)
{
	struct rr_trace *t;
	int i, n;

	if (has_magic(path, err))
		return NULL;
	tracecmd_set_loglevel(TEP_LOG_WARNING);
	tep_set_loglevel(TEP_LOG_WARNING);
	if (probe_open(path, err))
		return NULL;

	t = calloc(1, sizeof(*t));
	if (!t) {
		rr_error_set(err, path, "out of memory");
		return NULL;
	}
	t->path = strdup(path);
	t->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!t->handle) {
		rr_error_set(err, path,
			     "cannot read trace.dat headers (truncated or unsupported file version)");
		goto fail;
	}
	n = tracecmd_buffer_instances(t->handle);
	t->handles = calloc((size_t)n + 1, sizeof(*t->handles));
	if (!t->path || !t->handles) {
		rr_error_set(err, path, "out of memory");
		goto fail;
	}
	t->handles[t->nr_handles++] = t->handle;
	for (i = 0; i < n; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(t->handle, i);

		if (!h) {
			rr_error_set(err, path, "cannot read buffer instance '%s' (corrupt file?)",
				     tracecmd_buffer_instance_name(t->handle, i));
			goto fail;
		}
		t->handles[t->nr_handles++] = h;
	}
	for (i = 0; i < t->nr_handles; i++) {
		if (add_decoders(t, tracecmd_get_tep(t->handles[i]))) {
			rr_error_set(err, path, "out of memory");
			goto fail;
		}
	}
	t->info.file_version = (int)tracecmd_get_in_file_version(t->handle);
	t->info.page_size_bytes = tracecmd_page_size(t->handle);
	t->info.nr_cpus = tracecmd_cpus(t->handle);
	t->info.nr_buffers = t->nr_handles;
	if (tracecmd_get_uname(t->handle))
		snprintf(t->info.uname, sizeof(t->info.uname), "%s",
			 tracecmd_get_uname(t->handle));
	if (!(t->info.events_known & ((1u << RR_EV_MEMCG_RECLAIM_BEGIN) |
				      (1u << RR_EV_LRU_ISOLATE) |
				      (1u << RR_EV_MOD_LRUVEC)))) {
		rr_error_set(err, path,
			     "holds no vmscan or memcg events (record with -e vmscan -e memcg -e cgroup)");
		goto fail;
	}
	return t;
fail:
	rr_trace_close(t);
	return NULL;
}

const struct rr_trace_info *rr_trace_info(const struct rr_trace *trace)
{
	return &trace->info;
}

static uint64_t num(struct tep_format_field *f, const void *data)
{
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, data, &v))
		return 0;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		/* sign-extend */
		unsigned int bits = (unsigned int)f->size * 8;
		unsigned long long m = 1ULL << (bits - 1);

		v &= (1ULL << bits) - 1;
		v = (v ^ m) - m;
	}
	return v;
}

static int record_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		     void *data)
{
	struct rr_trace *t = data;
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct decoder_key key;
	struct decoder *dec;
	struct rr_event ev;

	if (rec->missed_events > 0) {
		t->info.nr_missed_events += (uint64_t)rec->missed_events;
		t->pending_lost += (uint64_t)rec->missed_events;
	}
	memset(&key, 0, sizeof(key));
	key.tep = tep;
	key.id = tep_data_type(tep, rec);
	HASH_FIND(hh, t->decoders, &key, sizeof(key), dec);
	if (!dec)
		return 0;

	memset(&ev, 0, sizeof(ev));
	ev.type = dec->type;
	ev.ts_ns = rec->ts;
	ev.cpu = cpu;
	ev.pid = tep_data_pid(tep, rec);
	ev.lost_before = t->pending_lost;	/* also losses before skipped records */
	t->pending_lost = 0;
	ev.id = num(dec->field[F_ID], rec->data);
	ev.item = (int)num(dec->field[F_ITEM], rec->data);
	ev.val = (int64_t)num(dec->field[F_VAL], rec->data);
	if (dec->field[F_VAL] && (dec->field[F_VAL]->flags & TEP_FIELD_IS_SIGNED) &&
	    dec->field[F_VAL]->size == 4)
		ev.val = (int32_t)ev.val;
	ev.force = num(dec->field[F_FORCE], rec->data) != 0;
	ev.needs_flush = num(dec->field[F_NEEDS_FLUSH], rec->data) != 0;
	ev.lru = (int)num(dec->field[F_LRU], rec->data);
	ev.priority = (int)num(dec->field[F_PRIORITY], rec->data);
	ev.nid = (int)num(dec->field[F_NID], rec->data);
	ev.reclaim_flags = (int)num(dec->field[F_FLAGS], rec->data);
	ev.nr_requested = num(dec->field[F_NR_REQUESTED], rec->data);
	ev.nr_scanned = num(dec->field[F_NR_SCANNED], rec->data);
	ev.nr_taken = num(dec->field[F_NR_TAKEN], rec->data);
	ev.nr_reclaimed = num(dec->field[F_NR_RECLAIMED], rec->data);
	ev.nr_referenced = num(dec->field[F_NR_REFERENCED], rec->data);
	ev.nr_deactivated = num(dec->field[F_NR_DEACTIVATED], rec->data);
	ev.nr_activate = num(dec->field[F_NR_ACTIVATE0], rec->data) +
			 num(dec->field[F_NR_ACTIVATE1], rec->data);
	ev.cgroup_root = (int)num(dec->field[F_ROOT], rec->data);
	ev.cgroup_level = (int)num(dec->field[F_LEVEL], rec->data);
	ev.attach_pid = (int)num(dec->field[F_PID], rec->data);
	if (dec->field[F_STR]) {
		int len = 0;
		const char *s = tep_get_field_raw(NULL, dec->event,
						  dec->field[F_STR]->name, rec,
						  &len, 0);

		/* ftrace:print's "char buf[]" runs to the end of the record */
		if (s && len <= 0 && (dec->field[F_STR]->flags & TEP_FIELD_IS_ARRAY))
			len = rec->size - dec->field[F_STR]->offset;

		if (s && len > 0) {
			/* stop at the first NUL; strip a trailing newline */
			int n = (int)strnlen(s, (size_t)len);

			while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
				n--;
			ev.str = s;
			ev.str_len = n;
		}
	}
	t->cb_ret = t->cb(&ev, t->ctx);
	return t->cb_ret;
}

int rr_trace_for_each(struct rr_trace *trace, rr_event_cb cb, void *ctx,
		      struct rr_error *err)
{
	int ret;

	trace->cb = cb;
	trace->ctx = ctx;
	trace->cb_ret = 0;
	/* format-parsing complaints of the open (unrelated events whose print
	 * formats use unknown helpers) are normal; count only data problems */
	memset(&lib_diag, 0, sizeof(lib_diag));
	/* tracecmd_open() and tracecmd_buffer_instance_handle() already
	 * loaded the data sections */
	ret = tracecmd_iterate_events_multi(trace->handles, trace->nr_handles,
					    record_cb, trace);
	if (trace->cb_ret)
		return trace->cb_ret;
	if (ret < 0) {
		rr_error_set(err, trace->path, "cannot read the event data");
		return -1;
	}
	return 0;
}

void rr_trace_close(struct rr_trace *t)
{
	struct decoder *d, *tmp;

	if (!t)
		return;
	HASH_ITER(hh, t->decoders, d, tmp) {
		HASH_DEL(t->decoders, d);
		free(d);
	}
	/* instance handles are owned by the parent handle */
	if (t->handle)
		tracecmd_close(t->handle);
	free(t->handles);
	free(t->path);
	free(t);
}
