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
#include "../common/cleanup.h"
#include "event-desc.h"
#include "pipe.h"
#include "text.h"

#include <errno.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
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
#include <traceevent/kbuffer.h>

/*
 * Exported by libtracecmd.so.1 but declared only in trace-cmd's private
 * header (lib/trace-cmd/include/private/trace-cmd-private.h).
 */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
struct tep_record *tracecmd_peek_data(struct tracecmd_input *handle, int cpu);
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);

/* One numeric field of an event, where the record holds it. */
struct slot {
	uint8_t field;			/* enum rr_field */
	uint8_t size;			/* 1, 2, 4 or 8 bytes */
	bool is_signed;
	uint16_t offset;
};

/* How to decode one event type of one buffer: resolved once, by id. */
struct decoder {
	enum rr_event_type type;	/* RR_EV_NONE: counted as skipped */
	struct tep_event *event;
	struct tep_format_field *str;	/* the string field, or NULL */
	int skip_slot;			/* RR_EV_NONE: slot in info.skipped */
	bool skip_slot_known;		/* (trace->invalid_id: resolved once) */
	bool no_format;			/* an id no format of the file defines */
	int nr_slots;
	struct slot slot[F__COUNT];
};

/* The decoders of one buffer (its tep), indexed by event id. */
struct buffer {
	struct tep_handle *tep;
	bool swap;			/* the file's byte order is not ours */
	/* common_type and common_pid, the same in every event of the buffer */
	struct slot type, pid;
	bool common_ok;			/* else ask libtraceevent per record */
	struct decoder **by_id;
	int nr_ids;
	/* the file offsets of the first and the last record read of each
	 * CPU in this walk (0: none yet): progress (see walked()) */
	uint64_t *first_offset, *last_offset;
	int nr_cpus;
	/* per CPU: the timestamp of its last record as the probe read it
	 * (RR_END_NONE: no data, RR_END_UNREADABLE: its last page cannot
	 * be read), and of the last record this walk read (0: none yet) */
	uint64_t *end_ts, *seen_ts;
	const char *name;		/* "" for the top buffer */
};

#define RR_END_NONE 0
#define RR_END_UNREADABLE UINT64_MAX

struct rr_trace {
	char *path;			/* as the user named it */
	char *spool;			/* a copy of a pipe's data, removed at close */
	struct rr_text *text;		/* a text trace; else the handles */
	struct tracecmd_input *handle;
	struct tracecmd_input **handles;
	struct buffer *buffers;		/* one per handle */
	int nr_handles;
	struct rr_trace_info info;
	/* iteration state */
	rr_event_cb cb;
	void *ctx;
	int cb_ret;
	uint64_t pending_lost;
	bool threaded;			/* read on a thread of its own */
	uint64_t records;		/* records read by this walk */
	struct decoder invalid_id;	/* of every id no format can have */
	/* the probe's per-CPU ends (see struct buffer), in handle order */
	uint64_t *probe_ends;
	int nr_probe_ends;
	/* events up to this time are flagged as around lost ones: a CPU's
	 * records stopped before its last one (damaged data) */
	uint64_t damage_until_ns;
	unsigned long refused_seen;	/* page_layout.refused at the last record */
};

/* iterate()'s "libtracecmd failed" (callbacks return other values) */
#define RR_TRACE_READ_ERROR (-0x7245)
#define RR_TRACE_OOM (-0x7246)		/* the reader's own memory ran out */

/* The first of the "a|b" names @names that @ev has. */
static struct tep_format_field *find_field(struct tep_event *ev, const char *names)
{
	char name[64];

	while (*names) {
		size_t n = strcspn(names, "|");
		struct tep_format_field *f;

		if (n < sizeof(name)) {
			memcpy(name, names, n);
			name[n] = 0;
			f = tep_find_field(ev, name);
			if (f)
				return f;
		}
		names += n + (names[n] == '|');
	}
	return NULL;
}

/* The decoder slot of @id (0..65535: callers check) in @b, growing the
 * table; NULL on ENOMEM. */
static struct decoder **decoder_slot(struct buffer *b, int id)
{
	if (id < 0 || id > 65535)
		return NULL;
	if (id >= b->nr_ids) {
		int n = id + 64;
		struct decoder **t = realloc(b->by_id, (size_t)n * sizeof(*t));

		if (!t)
			return NULL;
		memset(t + b->nr_ids, 0, (size_t)(n - b->nr_ids) * sizeof(*t));
		b->by_id = t;
		b->nr_ids = n;
	}
	return &b->by_id[id];
}

/* Where each field of @d is, looked up by name once per event type. */
static void add_slots(struct decoder *d, const struct rr_event_desc *desc)
{
	/* `lru` (v4.11+) replaced the isolate event's `file` flag */
	bool has_lru = desc->fields[F_LRU] && find_field(d->event, desc->fields[F_LRU]);

	for (int f = 0; f < F__COUNT; f++) {
		struct tep_format_field *tf;

		if (!desc->fields[f] || (f == F_FILE && has_lru))
			continue;
		tf = find_field(d->event, desc->fields[f]);
		if (!tf)
			continue;	/* missing fields read 0 */
		if (f == F_STR) {
			d->str = tf;
			continue;
		}
		if ((tf->size != 1 && tf->size != 2 && tf->size != 4 && tf->size != 8) ||
		    tf->offset < 0 || tf->offset > 65535 ||
		    (tf->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
			continue;	/* not a number */
		d->slot[d->nr_slots++] = (struct slot){
			.field = (uint8_t)f, .size = (uint8_t)tf->size,
			.is_signed = (tf->flags & TEP_FIELD_IS_SIGNED) != 0,
			.offset = (uint16_t)tf->offset,
		};
	}
}

/* Where every record of @b holds its type and pid. */
static void common_slots(struct buffer *b)
{
	struct tep_event *ev = tep_get_first_event(b->tep);
	struct tep_format_field *type = ev ? tep_find_common_field(ev, "common_type") : NULL;
	struct tep_format_field *pid = ev ? tep_find_common_field(ev, "common_pid") : NULL;

	b->common_ok = type && pid && (type->size == 1 || type->size == 2 || type->size == 4) &&
		       pid->size == 4 && type->offset >= 0 && type->offset < 256 &&
		       pid->offset >= 0 && pid->offset < 256;
	if (!b->common_ok)
		return;
	b->type = (struct slot){ .size = (uint8_t)type->size, .offset = (uint16_t)type->offset };
	b->pid = (struct slot){ .size = 4, .is_signed = true, .offset = (uint16_t)pid->offset };
}

/* Build decoders for every known event present in buffer @b. */
static int add_decoders(struct rr_trace *t, struct buffer *b)
{
	common_slots(b);
	for (size_t i = 0; i < rr_nr_known_events; i++) {
		const struct rr_event_desc *desc = &rr_known_events[i];
		struct tep_event *ev = tep_find_event_by_name(b->tep, desc->system, desc->name);
		struct decoder **slot, *d;

		if (!ev || ev->id < 0 || ev->id > 65535)
			continue;	/* (an id a decoder table cannot hold) */
		slot = decoder_slot(b, ev->id);
		if (!slot)
			return -1;
		if (*slot)
			continue;
		d = calloc(1, sizeof(*d));
		if (!d)
			return -1;
		d->type = desc->type;
		d->event = ev;
		add_slots(d, desc);
		*slot = d;
		t->info.events_known |= 1u << desc->type;
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

/*
 * The ring-buffer page layout of the file being read (set at open): a page
 * holds a u64 timestamp, a `long` commit (the data's size in bytes, flags
 * in its top bits) and the data.  libtraceevent 1.7's kbuffer trusts the
 * commit and the event lengths: damaged ones send it reading past the page
 * or round one event for ever (found by fuzzing).  kbuffer_load_subbuffer()
 * below checks a page first and refuses it whole.
 */
static struct {
	int page_size;			/* bytes; 0: not known, no check */
	bool compressed;		/* v7 data compressed: offsets are not the file's */
	/* the size of a page header's commit field: the kernel's long, from
	 * the header_page format (the file header's long size is trace-cmd's
	 * own, 4 from a 32-bit trace-cmd on a 64-bit kernel) */
	int long_size;
	bool swap;			/* the file's byte order is not ours */
	bool no_walk;			/* pre-2.6.31 page layout: no page_events_walk() */
	/* pages refused: a commit beyond the page (bad), event headers that
	 * do not walk to the data's size (odd, page_events_walk()), and both
	 * together (one load per record tells the reader a page went) */
	unsigned long bad_pages, odd_pages, refused;
	uint64_t first_bad_ts, first_odd_ts;	/* the first of each: its time stamp */
} page_layout;

/* Count a refused page in @count, keep its time stamp if it is the first. */
static void refuse_page(unsigned long *count, uint64_t *first_ts, const void *page)
{
	if (!__atomic_fetch_add(count, 1, __ATOMIC_RELAXED))
		memcpy(first_ts, page, 8);
	__atomic_add_fetch(&page_layout.refused, 1, __ATOMIC_RELAXED);
}

static uint32_t page_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return page_layout.swap ? __builtin_bswap32(v) : v;
}

/*
 * Walk the event headers of a page's @size bytes of data @d as the kernel
 * lays them out (struct ring_buffer_event, kernel/trace/ring_buffer.c: a
 * u32 of type_len:5 and time_delta:27, then data; type_len 1..28 is that
 * many 4-byte words, 0 a length in the next u32, 29 padding (a discarded
 * event, or with time_delta 0 the rest of the page), 30 a time extend and
 * 31 an absolute time stamp, 8 bytes each).  Return whether the walk lands
 * on @size: a damaged header sends it elsewhere, where libtraceevent would
 * end the page early without a word.  (Little-endian bit fields: the only
 * layout this checks; a big-endian file is not walked.)
 */
static bool page_events_walk(const unsigned char *d, uint64_t size)
{
	uint64_t off = 0;

	while (off + 4 <= size) {
		uint32_t h = page_u32(d + off), type_len = h & 31, delta = h >> 5;
		uint64_t len;

		if (type_len >= 1 && type_len <= 28) {
			len = 4 + 4 * (uint64_t)type_len;
		} else if (type_len == 30 || type_len == 31) {
			len = 8;
		} else if (type_len == 29 && !delta) {
			return true;	/* padding: the rest of the page */
		} else {		/* 0, or a discarded event (29) */
			if (off + 8 > size)
				return false;
			len = 4 + (uint64_t)page_u32(d + off + 4);
			if (type_len == 0 && len < 8)
				return false;
		}
		off += len;
	}
	return off == size;
}

static uint64_t page_long(const unsigned char *p)
{
	uint64_t v;

	if (page_layout.long_size == 4)
		return page_u32(p);
	memcpy(&v, p, 8);
	return page_layout.swap ? __builtin_bswap64(v) : v;
}

/*
 * Interposed on libtraceevent's (libtracecmd calls it through the PLT): a
 * page whose commit says more data than the page holds, or whose event
 * headers do not add up, is refused (-1, as libtraceevent refuses a NULL
 * page); libtracecmd goes on with the CPU's next page, and the next record
 * read flags the episodes around (record_cb()).  COMMIT_MASK is
 * (1 << 27) - 1 in kbuffer-parse.c, the flags RB_MISSED_* are above it.
 */
int kbuffer_load_subbuffer(struct kbuffer *kbuf, void *subbuffer)
{
	static int (*real)(struct kbuffer *, void *);
	int (*fn)(struct kbuffer *, void *) = __atomic_load_n(&real, __ATOMIC_ACQUIRE);

	if (!fn) {
		*(void **)&fn = dlsym(RTLD_NEXT, "kbuffer_load_subbuffer");
		if (!fn)
			return -1;
		__atomic_store_n(&real, fn, __ATOMIC_RELEASE);
	}
	if (subbuffer && page_layout.page_size > 8 + page_layout.long_size) {
		uint64_t commit = page_long((const unsigned char *)subbuffer + 8);
		uint64_t size = commit & ((1u << 27) - 1);
		uint64_t room = (uint64_t)(page_layout.page_size - 8 - page_layout.long_size);

		/* with RB_MISSED_EVENTS and RB_MISSED_STORED (bits 31, 30) the
		 * count of missed events is a long after the data */
		if (size > room || ((commit >> 30 & 3) == 3 && size + (uint64_t)page_layout.long_size > room)) {
			refuse_page(&page_layout.bad_pages, &page_layout.first_bad_ts, subbuffer);
			return -1;
		}
		/* a page whose headers do not add up is not handed over either:
		 * a length near 2^32 wraps in kbuffer's 32-bit arithmetic and it
		 * reads the same event for ever (a hang found by fuzzing) */
		if (!page_layout.swap && !page_layout.no_walk &&
		    !page_events_walk((const unsigned char *)subbuffer + 8 + page_layout.long_size,
				      size)) {
			refuse_page(&page_layout.odd_pages, &page_layout.first_odd_ts, subbuffer);
			return -1;
		}
	}
	return fn(kbuf, subbuffer);
}

/* 0: a trace.dat; 1: no trace-cmd magic (maybe a text trace); -1: error */
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
	if (n != (ssize_t)sizeof(buf) || memcmp(buf, magic, sizeof(magic)))
		return 1;	/* not a trace.dat: maybe text */
	return 0;
}

/* The timestamp of CPU @cpu's last record in @h, RR_END_NONE when the CPU
 * has no record, RR_END_UNREADABLE when it has but its last cannot be read. */
static uint64_t cpu_end(struct tracecmd_input *h, int cpu)
{
	struct tep_record *first = tracecmd_read_cpu_first(h, cpu), *last;
	unsigned long refused = page_layout.refused;
	uint64_t end;

	if (!first)
		return RR_END_NONE;
	tracecmd_free_record(first);
	last = tracecmd_read_cpu_last(h, cpu);
	if (last && page_layout.refused != refused) {
		/* its last page was refused: what came back is of an earlier one */
		tracecmd_free_record(last);
		return RR_END_UNREADABLE;
	}
	if (!last)
		return RR_END_UNREADABLE;
	end = last->ts ? last->ts : 1;
	tracecmd_free_record(last);
	return end == RR_END_UNREADABLE ? end - 1 : end;
}

static void put_u64(int fd, uint64_t v)
{
	if (write(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		_exit(4);
}

/*
 * Open @path and every buffer instance in it, as the real open does, and
 * write to @fd the count, then the timestamp of the last record of every
 * CPU of every buffer in the order open_file() keeps them (see cpu_end()).
 */
static int open_all(const char *path, int fd)
{
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	struct tracecmd_input **in;
	int n, total, ret = 0;

	if (!h)
		return -1;
	/* the page layout as the kernel wrote it, for this walk and the parent's */
	{
		struct tep_handle *tep = tracecmd_get_tep(h);
		int ls = tep ? tep_get_header_page_size(tep) : 0;

		if (ls == 4 || ls == 8)
			page_layout.long_size = ls;
		page_layout.no_walk = tep && tep_is_old_format(tep);
		put_u64(fd, (uint64_t)page_layout.long_size | (page_layout.no_walk ? 1u << 8 : 0));
	}
	n = tracecmd_buffer_instances(h);
	in = calloc((size_t)n + 1, sizeof(*in));
	if (!in)
		_exit(4);
	in[0] = h;
	total = tracecmd_cpus(h) > 0 ? tracecmd_cpus(h) : 0;
	for (int i = 0; i < n && !ret; i++) {
		in[i + 1] = tracecmd_buffer_instance_handle(h, i);
		if (!in[i + 1])
			ret = -1;
		else
			total += tracecmd_cpus(in[i + 1]) > 0 ? tracecmd_cpus(in[i + 1]) : 0;
	}
	if (!ret) {
		put_u64(fd, (uint64_t)total);
		for (int i = 0; i <= n; i++)
			for (int c = 0; c < tracecmd_cpus(in[i]); c++)
				put_u64(fd, cpu_end(in[i], c));
	}
	/* an instance handle holds a reference on its parent: close them first */
	for (int i = n; i >= 1; i--)
		if (in[i])
			tracecmd_close(in[i]);
	tracecmd_close(h);
	free(in);
	return ret;
}

/* How long the probe may take: opening a file and reading each CPU's first
 * and last page is a fraction of a second even for gigabytes. */
#define RR_PROBE_SECONDS 60

/*
 * Called in the probe's child when defined: the fuzzing harness
 * (tests/fuzz) makes a sanitizer report there end the child quietly, as a
 * crash would, instead of being taken for a finding.
 */
extern void rr_probe_child_hook(void) __attribute__((weak));

/*
 * libtracecmd 1.3 crashes on some damaged files while opening them (a
 * double free on a header cut short, a SIGSEGV on a v6 file truncated by a
 * byte).  Open the file once in a child first: a child that dies means the
 * file is corrupt, and the real open is not attempted.  The child also
 * reads where each CPU's data ends (@ends, @nr_ends; malloc'd, NULL when
 * not told), for the walk to see a CPU whose records stop early.
 */
static int probe_open(const char *path, uint64_t **ends, int *nr_ends, struct rr_error *err)
{
	uint64_t *v = NULL, count = 0, layout = 0;
	size_t got = 0, want = sizeof(count);
	int status, fds[2];
	pid_t pid;

	*ends = NULL;
	*nr_ends = 0;
	if (pipe2(fds, O_CLOEXEC))
		return 0;	/* no probe: proceed */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		close(fds[0]);
		rr_cleanup_in_child();
		if (rr_probe_child_hook)
			rr_probe_child_hook();
		if (devnull >= 0) {	/* silence sanitizer reports in the child */
			dup2(devnull, STDERR_FILENO);
			dup2(devnull, STDOUT_FILENO);
		}
		/* a library that loops on damaged data ends here, not the walk */
		signal(SIGALRM, SIG_DFL);
		alarm(RR_PROBE_SECONDS);
		_exit(open_all(path, fds[1]) ? 3 : 0);
	}
	close(fds[1]);
	/* the kernel's page layout, then the count, then that many ends */
	while (got < sizeof(layout)) {
		ssize_t r = read(fds[0], (char *)&layout + got, sizeof(layout) - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got == sizeof(layout) && ((layout & 0xff) == 4 || (layout & 0xff) == 8)) {
		page_layout.long_size = (int)(layout & 0xff);
		page_layout.no_walk = layout >> 8 & 1;
	}
	got = 0;
	for (;;) {
		ssize_t r = read(fds[0], (char *)(v ? (void *)v : (void *)&count) + got, want - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
		if (got < want)
			continue;
		if (v || !count || count > 1u << 20)
			break;
		v = calloc((size_t)count, sizeof(*v));
		if (!v)
			break;
		got = 0;
		want = (size_t)count * sizeof(*v);
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			free(v);
			return 0;
		}
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3)) {
		if (WEXITSTATUS(status) == 0 && v && got == want) {
			*ends = v;
			*nr_ends = (int)count;
		} else {
			free(v);
		}
		return 0;
	}
	free(v);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		rr_error_set(err, path, "corrupt or truncated trace file (the trace reader "
			     "library did not finish opening it in %d s)", RR_PROBE_SECONDS);
	else if (WIFSIGNALED(status))
		rr_error_set(err, path, "corrupt or truncated trace file (the trace reader "
			     "library died with signal %d opening it or reading the ends of its "
			     "data)", WTERMSIG(status));
	else
		rr_error_set(err, path, "corrupt or truncated trace file (the trace reader "
			     "library failed opening it or reading the ends of its data, status %d)",
			     WEXITSTATUS(status));
	return -1;
}

int rr_trace_info_skip_slot(struct rr_trace_info *info, const char *name)
{
	int i;

	for (i = 0; i < info->nr_skipped_names; i++)
		if (!strcmp(info->skipped[i].name, name))
			return i;
	if (info->nr_skipped_names == RR_SKIPPED_NAMES - 1) {
		/* the last slot collects the rest */
		snprintf(info->skipped[i].name, sizeof(info->skipped[i].name), "(other)");
		info->nr_skipped_names++;
		return i;
	}
	if (i == RR_SKIPPED_NAMES)
		return RR_SKIPPED_NAMES - 1;
	snprintf(info->skipped[i].name, sizeof(info->skipped[i].name), "%s", name);
	info->nr_skipped_names++;
	return i;
}

/* Each field problem's words for the table and its JSON key. */
static const struct {
	const char *name, *token;
} field_problems[RR_FP__COUNT] = {
	[RR_FP_MISSING] = { "missing", "missing" },
	[RR_FP_MISSING_KEPT] = { "missing (event kept, value unknown)", "missing_kept" },
	[RR_FP_MISSING_ZERO] = { "missing (event kept, 0 pages assumed)", "missing_zero" },
	[RR_FP_UNPARSEABLE] = { "unparseable", "unparseable" },
	[RR_FP_OUT_OF_RANGE] = { "out of range", "out_of_range" },
	[RR_FP_SENTINEL] = { "-1 printed unsigned (unknown)", "minus_one_unsigned" },
	[RR_FP_CUT] = { "line cut before it", "line_cut" },
	[RR_FP_FLAGS_MISMATCH] = { "not the type the next shrink event's flags give",
				   "flags_mismatch" },
	[RR_FP_LIST_UNKNOWN] = { "list unknown (file= and no shrink_inactive after it)",
				 "list_unknown" },
};

const char *rr_field_problem_name(enum rr_field_problem p)
{
	return (unsigned int)p < RR_FP__COUNT ? field_problems[p].name : "?";
}

const char *rr_field_problem_token(enum rr_field_problem p)
{
	return (unsigned int)p < RR_FP__COUNT ? field_problems[p].token : "?";
}

void rr_trace_info_field_problem(struct rr_trace_info *info, const char *event,
				 const char *field, enum rr_field_problem problem)
{
	int i;

	for (i = 0; i < info->nr_field_problems; i++)
		if (info->field_problems[i].problem == problem &&
		    !strncmp(info->field_problems[i].event, event,
			     sizeof(info->field_problems[i].event) - 1) &&
		    !strncmp(info->field_problems[i].field, field,
			     sizeof(info->field_problems[i].field) - 1))
			break;
	if (i == info->nr_field_problems) {
		if (i == RR_FIELD_PROBLEM_SLOTS) {
			info->field_problems_other++;
			return;
		}
		snprintf(info->field_problems[i].event, sizeof(info->field_problems[i].event),
			 "%s", event);
		snprintf(info->field_problems[i].field, sizeof(info->field_problems[i].field),
			 "%s", field);
		info->field_problems[i].problem = problem;
		info->field_problems[i].count = 0;
		info->nr_field_problems++;
	}
	info->field_problems[i].count++;
}

void rr_trace_info_count_skipped(struct rr_trace_info *info, int slot)
{
	info->nr_skipped_events++;
	if (slot >= 0 && slot < RR_SKIPPED_NAMES)
		info->skipped[slot].count++;
}

unsigned int rr_trace_lib_warnings(const char **first)
{
	if (first)
		*first = lib_diag.first;
	return lib_diag.count;
}

/*
 * Read the page layout (see page_layout) from the trace.dat header: magic
 * (3), "tracing" (7), the version string, endian (1: 0 little, 1 big),
 * long size (1), page size (4, in the file's order), and from version 7
 * the compression's name ("none" when not); trace-cmd.dat.v7(5).
 */
static int set_page_layout(const char *path, struct rr_error *err)
{
	unsigned char h[128];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(h, 1, sizeof(h) - 1, f) : 0, at;
	uint32_t ps;

	if (f)
		fclose(f);
	memset(&page_layout, 0, sizeof(page_layout));
	h[n] = 0;
	at = 10 + strnlen((const char *)h + 10, n > 10 ? n - 10 : 0) + 1;
	if (n < 12 || at + 6 > n) {
		rr_error_set(err, path, "cannot read trace.dat headers (truncated)");
		return -1;
	}
	memcpy(&ps, h + at + 2, 4);
	page_layout.swap = (h[at] != 0) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (page_layout.swap)
		ps = __builtin_bswap32(ps);
	page_layout.long_size = h[at + 1] == 4 ? 4 : 8;
	if (h[at + 1] != 4 && h[at + 1] != 8) {
		rr_error_set(err, path, "trace.dat header: a long of %d bytes (4 or 8 expected)",
			     h[at + 1]);
		return -1;
	}
	if (ps < 64 || ps > (1u << 24)) {
		rr_error_set(err, path, "trace.dat header: a page size of %u bytes", ps);
		return -1;
	}
	page_layout.page_size = (int)ps;
	page_layout.compressed = strtol((const char *)h + 10, NULL, 10) >= 7 && at + 6 < n &&
				 h[at + 6] && strcmp((const char *)h + at + 6, "none");
	return 0;
}

static struct rr_trace *open_file(const char *path, struct rr_error *err)
{
	struct rr_trace *t;
	uint64_t *ends;
	int i, n, nr_ends, at = 0;

	int magic = has_magic(path, err);

	if (magic < 0)
		return NULL;
	if (magic > 0) {
		t = calloc(1, sizeof(*t));
		if (!t || !(t->path = strdup(path))) {
			rr_error_set(err, path, "out of memory");
			rr_trace_close(t);
			return NULL;
		}
		t->info.format = RR_FORMAT_TEXT;
		t->text = rr_text_open(path, &t->info, err);
		if (!t->text) {
			rr_trace_close(t);
			return NULL;
		}
		return t;
	}
	tracecmd_set_loglevel(TEP_LOG_WARNING);
	tep_set_loglevel(TEP_LOG_WARNING);
	if (set_page_layout(path, err))
		return NULL;
	if (probe_open(path, &ends, &nr_ends, err))
		return NULL;

	t = calloc(1, sizeof(*t));
	if (!t) {
		free(ends);
		rr_error_set(err, path, "out of memory");
		return NULL;
	}
	t->probe_ends = ends;
	t->nr_probe_ends = nr_ends;
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
	t->buffers = calloc((size_t)t->nr_handles, sizeof(*t->buffers));
	if (!t->buffers) {
		rr_error_set(err, path, "out of memory");
		goto fail;
	}
	for (i = 0; i < t->nr_handles; i++) {
		struct buffer *b = &t->buffers[i];

		b->tep = tracecmd_get_tep(t->handles[i]);
		b->nr_cpus = tracecmd_cpus(t->handles[i]);
		if (b->nr_cpus < 0)
			b->nr_cpus = 0;
		b->first_offset = calloc((size_t)b->nr_cpus + 1, sizeof(*b->first_offset));
		b->last_offset = calloc((size_t)b->nr_cpus + 1, sizeof(*b->last_offset));
		b->end_ts = calloc((size_t)b->nr_cpus + 1, sizeof(*b->end_ts));
		b->seen_ts = calloc((size_t)b->nr_cpus + 1, sizeof(*b->seen_ts));
		if (!b->first_offset || !b->last_offset || !b->end_ts || !b->seen_ts) {
			rr_error_set(err, path, "out of memory");
			goto fail;
		}
		b->name = i ? tracecmd_buffer_instance_name(t->handle, i - 1) : "";
		if (!b->name)
			b->name = "?";
		/* the probe's ends, when it told as many CPUs as this open has */
		for (int c = 0; c < b->nr_cpus; c++, at++)
			b->end_ts[c] = at < t->nr_probe_ends ? t->probe_ends[at] : RR_END_NONE;
		b->swap = tep_is_file_bigendian(b->tep) != tep_is_local_bigendian(b->tep);
		tracecmd_set_private(t->handles[i], b);
		if (add_decoders(t, b)) {
			rr_error_set(err, path, "out of memory");
			goto fail;
		}
	}
	if (at != t->nr_probe_ends)	/* (not the same file any more?) */
		for (i = 0; i < t->nr_handles; i++)
			memset(t->buffers[i].end_ts, 0,
			       (size_t)t->buffers[i].nr_cpus * sizeof(*t->buffers[i].end_ts));
	t->threaded = true;
	{
		struct stat st;

		/* records of compressed data have offsets of the data
		 * uncompressed: how far that is in the file is not known */
		t->info.file_bytes = !stat(path, &st) && !page_layout.compressed ?
				     (uint64_t)st.st_size : 0;
	}
	t->info.file_version = (int)tracecmd_get_in_file_version(t->handle);
	t->info.page_size_bytes = tracecmd_page_size(t->handle);
	t->info.nr_cpus = tracecmd_cpus(t->handle);
	t->info.nr_buffers = t->nr_handles;
	if (tracecmd_get_uname(t->handle))
		snprintf(t->info.uname, sizeof(t->info.uname), "%s",
			 tracecmd_get_uname(t->handle));
	if (!(t->info.events_known & RR_EV_RECLAIM_MASK)) {
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

int rr_trace_progress(const struct rr_trace *trace)
{
	uint64_t done = __atomic_load_n(&trace->info.bytes_read, __ATOMIC_RELAXED);
	uint64_t size = trace->info.file_bytes;

	if (!size)
		return -1;
	return done >= size ? 1000 : (int)(done * 1000 / size);
}

/* The number in @slot of a record of @size bytes; 0 if it is cut short. */
static uint64_t num(const struct slot *sl, const unsigned char *data, int size, bool swap)
{
	const unsigned char *p = data + sl->offset;
	uint64_t v;

	if (sl->offset + sl->size > size)
		return 0;
	switch (sl->size) {
	case 1:
		v = *p;
		return sl->is_signed ? (uint64_t)(int64_t)(int8_t)v : v;
	case 2: {
		uint16_t x;

		memcpy(&x, p, 2);
		if (swap)
			x = __builtin_bswap16(x);
		return sl->is_signed ? (uint64_t)(int64_t)(int16_t)x : x;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, 4);
		if (swap)
			x = __builtin_bswap32(x);
		return sl->is_signed ? (uint64_t)(int64_t)(int32_t)x : x;
	}
	default:
		memcpy(&v, p, 8);
		return swap ? __builtin_bswap64(v) : v;
	}
}

/* A decoder for an event the replay does not use: its name is counted.
 * An id no format can have shares one decoder (counted as "(unknown id)");
 * NULL on ENOMEM. */
static struct decoder *unknown_event(struct rr_trace *t, struct buffer *b, int id)
{
	struct decoder **slot, *d;
	struct tep_event *e;

	if (id < 0 || id > 65535) {
		if (!t->invalid_id.skip_slot_known) {
			t->invalid_id.type = RR_EV_NONE;
			t->invalid_id.skip_slot = rr_trace_info_skip_slot(&t->info, "(unknown id)");
			t->invalid_id.skip_slot_known = true;
			t->invalid_id.no_format = true;
		}
		return &t->invalid_id;
	}
	slot = decoder_slot(b, id);
	d = slot ? calloc(1, sizeof(*d)) : NULL;
	if (!d)
		return NULL;
	e = tep_find_event(b->tep, id);
	d->type = RR_EV_NONE;
	d->skip_slot = rr_trace_info_skip_slot(&t->info, e ? e->name : "(unknown id)");
	d->no_format = !e;
	*slot = d;
	return d;
}

/*
 * How far the walk is, for rr_trace_progress().  A trace.dat keeps each
 * CPU's records in a section of its own and the walk takes them in time
 * order, so a record's file offset says nothing of the whole: count instead
 * the bytes between the first and the last record read of each CPU, plus
 * what lies before the first data (the headers, read at open).  Summed
 * every 1024 records; never backwards (a CPU whose section comes first in
 * the file may show its first record late).
 */
static void publish_walked(struct rr_trace *t)
{
	uint64_t first = UINT64_MAX, walked = 0;

	for (int i = 0; i < t->nr_handles; i++) {
		const struct buffer *b = &t->buffers[i];

		for (int c = 0; c < b->nr_cpus; c++) {
			if (!b->first_offset[c])
				continue;
			walked += b->last_offset[c] - b->first_offset[c];
			if (b->first_offset[c] < first)
				first = b->first_offset[c];
		}
	}
	if (walked && first + walked > t->info.bytes_read)
		rr_trace_info_progress(&t->info, first + walked);
}

/* (per record: two stores, and the sum every 1024) */
static inline void walked(struct rr_trace *t, struct buffer *b, int cpu, uint64_t offset)
{
	if (!t->info.file_bytes || cpu < 0 || cpu >= b->nr_cpus)
		return;		/* (compressed data: not told) */
	if (!b->first_offset[cpu])
		b->first_offset[cpu] = offset;
	b->last_offset[cpu] = offset;
	if (!(++t->records & 1023))
		publish_walked(t);
}

/*
 * Drop a record whose field @field holds @v, a value no kernel writes there
 * (a damaged or crafted file): count it, keep the first for the warning,
 * and flag the episodes around it as for a lost event.
 */
static void malformed(struct rr_trace *t, const struct decoder *dec,
		      const struct tep_record *rec, const char *field, uint64_t v,
		      enum rr_field_problem why)
{
	rr_trace_info_field_problem(&t->info, dec->event->name, field, why);
	if (!t->info.malformed_events++)
		snprintf(t->info.first_malformed, sizeof(t->info.first_malformed),
			 "%s at %llu.%06llu s (CPU %d): %s = %lld", dec->event->name,
			 (unsigned long long)(rec->ts / 1000000000),
			 (unsigned long long)(rec->ts % 1000000000 / 1000), rec->cpu, field,
			 (long long)v);
	t->pending_lost++;
}

/* @cpu_of_all counts the CPUs of every buffer before this one: the record's
 * own CPU is rec->cpu */
static int record_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu_of_all,
		     void *data)
{
	struct rr_trace *t = data;
	struct buffer *b = tracecmd_get_private(h);
	int id = b->common_ok ? (int)num(&b->type, rec->data, rec->size, b->swap) :
		 tep_data_type(b->tep, rec);
	struct decoder *dec = id >= 0 && id < b->nr_ids ? b->by_id[id] : NULL;
	struct rr_event ev;

	(void)cpu_of_all;

	walked(t, b, rec->cpu, rec->offset);
	if (rec->cpu >= 0 && rec->cpu < b->nr_cpus) {
		if (rec->ts < b->seen_ts[rec->cpu]) {	/* one CPU's data is in time order */
			if (!t->info.backwards_records++)
				snprintf(t->info.first_backwards, sizeof(t->info.first_backwards),
					 "CPU %d%s%s: %llu.%06llu s after %llu.%06llu s", rec->cpu,
					 *b->name ? " of buffer " : "", b->name,
					 (unsigned long long)(rec->ts / 1000000000),
					 (unsigned long long)(rec->ts % 1000000000 / 1000),
					 (unsigned long long)(b->seen_ts[rec->cpu] / 1000000000),
					 (unsigned long long)(b->seen_ts[rec->cpu] % 1000000000 / 1000));
			t->pending_lost++;
		}
		b->seen_ts[rec->cpu] = rec->ts;
	}
	if (t->damage_until_ns && rec->ts <= t->damage_until_ns)
		t->pending_lost++;	/* (a CPU's records in this window are missing) */
	if (__atomic_load_n(&page_layout.refused, __ATOMIC_RELAXED) != t->refused_seen) {
		/* a page was refused since the last record: events are missing */
		t->refused_seen = __atomic_load_n(&page_layout.refused, __ATOMIC_RELAXED);
		t->pending_lost++;
	}
	if (rec->missed_events > 0) {
		t->info.nr_missed_events += (uint64_t)rec->missed_events;
		t->pending_lost += (uint64_t)rec->missed_events;
	}
	if (!dec && !(dec = unknown_event(t, b, id))) {
		t->cb_ret = RR_TRACE_OOM;
		return -1;
	}
	if (dec->type == RR_EV_NONE) {
		rr_trace_info_count_skipped(&t->info, dec->skip_slot);
		/* a damaged record, or an event someone else enabled that the
		 * file keeps no format of (trace-cmd record saves only the
		 * formats of the events it was asked for): said, not flagged */
		if (dec->no_format && !t->info.no_format_records++)
			snprintf(t->info.first_no_format, sizeof(t->info.first_no_format),
				 "id %d at %llu.%06llu s (CPU %d)", id,
				 (unsigned long long)(rec->ts / 1000000000),
				 (unsigned long long)(rec->ts % 1000000000 / 1000), rec->cpu);
		return 0;
	}

	memset(&ev, 0, sizeof(ev));
	ev.order = ev.classzone = -1;
	ev.type = dec->type;
	ev.ts_ns = rec->ts;
	ev.cpu = rec->cpu;
	ev.pid = b->common_ok ? (int)num(&b->pid, rec->data, rec->size, b->swap) :
		 tep_data_pid(b->tep, rec);
	if (ev.pid < 0) {
		malformed(t, dec, rec, "common_pid", (uint64_t)(int64_t)ev.pid,
			  RR_FP_OUT_OF_RANGE);
		return 0;
	}
	for (int i = 0; i < dec->nr_slots; i++) {
		enum rr_field f = (enum rr_field)dec->slot[i].field;
		uint64_t v = num(&dec->slot[i], rec->data, rec->size, b->swap);

		if (!rr_field_in_range(f, v)) {
			malformed(t, dec, rec, rr_field_name(f), v,
				  rr_field_is_sentinel(f, v) ? RR_FP_SENTINEL : RR_FP_OUT_OF_RANGE);
			return 0;
		}
		rr_event_set_field(&ev, f, v);
	}
	ev.lost_before = t->pending_lost;	/* also losses before skipped records */
	t->pending_lost = 0;
	if (dec->str) {
		int len = 0;
		const char *s = tep_get_field_raw(NULL, dec->event, dec->str->name, rec, &len, 0);

		/* ftrace:print's "char buf[]" runs to the end of the record */
		if (s && len <= 0 && (dec->str->flags & TEP_FIELD_IS_ARRAY))
			len = rec->size - dec->str->offset;

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

/*
 * CPU @cpu of buffer @b has no record left.  If the probe saw a later last
 * record (or could not read its last page), the data between is damaged:
 * note it, and flag every event up to that last record's time as one around
 * lost events (the kernel wrote records there that cannot be read).
 */
static void cpu_done(struct rr_trace *t, struct buffer *b, int cpu)
{
	uint64_t end = b->end_ts[cpu], seen = b->seen_ts[cpu];
	struct rr_trace_info *info = &t->info;

	if (end == RR_END_NONE || (end != RR_END_UNREADABLE && seen >= end))
		return;
	if (!info->damaged_cpus++) {
		if (end == RR_END_UNREADABLE)
			snprintf(info->first_damage, sizeof(info->first_damage),
				 "CPU %d%s%s: its last page cannot be read; its records stop at "
				 "%llu.%06llu s", cpu, *b->name ? " of buffer " : "", b->name,
				 (unsigned long long)(seen / 1000000000),
				 (unsigned long long)(seen % 1000000000 / 1000));
		else
			snprintf(info->first_damage, sizeof(info->first_damage),
				 "CPU %d%s%s: its records stop at %llu.%06llu s, but its last "
				 "record is at %llu.%06llu s", cpu, *b->name ? " of buffer " : "",
				 b->name, (unsigned long long)(seen / 1000000000),
				 (unsigned long long)(seen % 1000000000 / 1000),
				 (unsigned long long)(end / 1000000000),
				 (unsigned long long)(end % 1000000000 / 1000));
	}
	if (!info->damage_from_ns || (seen ? seen : 1) < info->damage_from_ns)
		info->damage_from_ns = seen ? seen : 1;
	if (end != RR_END_NONE && end > t->damage_until_ns)
		t->damage_until_ns = end;
	if (seen)
		info->damaged_cpus_read++;
	t->pending_lost++;
}

/*
 * Every CPU of every buffer merged by time, as tracecmd_iterate_events_multi()
 * does, but knowing when a CPU runs out (cpu_done()).  Return the callback's
 * non-zero value, or 0 at the end.
 */
static int merge_walk(struct rr_trace *t)
{
	int nr = 0, ret = 0;
	struct tep_record **next;
	int *hi, *cpu;

	for (int i = 0; i < t->nr_handles; i++)
		nr += t->buffers[i].nr_cpus;
	next = calloc((size_t)nr + 1, sizeof(*next));
	hi = calloc((size_t)nr + 1, sizeof(*hi));
	cpu = calloc((size_t)nr + 1, sizeof(*cpu));
	if (!next || !hi || !cpu) {
		free(next);
		free(hi);
		free(cpu);
		return RR_TRACE_OOM;
	}
	nr = 0;
	for (int i = 0; i < t->nr_handles; i++)
		for (int c = 0; c < t->buffers[i].nr_cpus; c++, nr++) {
			hi[nr] = i;
			cpu[nr] = c;
			next[nr] = tracecmd_peek_data(t->handles[i], c);
			if (!next[nr])
				cpu_done(t, &t->buffers[i], c);
		}
	for (;;) {
		struct tep_record *rec;
		int best = -1;

		for (int k = 0; k < nr; k++)
			if (next[k] && (best < 0 || next[k]->ts < next[best]->ts))
				best = k;
		if (best < 0)
			break;
		rec = tracecmd_read_data(t->handles[hi[best]], cpu[best]);
		if (!rec) {	/* (peeked, so readable: never) */
			next[best] = NULL;
			continue;
		}
		ret = record_cb(t->handles[hi[best]], rec, best, t);
		tracecmd_free_record(rec);
		if (ret)
			break;
		next[best] = tracecmd_peek_data(t->handles[hi[best]], cpu[best]);
		if (!next[best])
			cpu_done(t, &t->buffers[hi[best]], cpu[best]);
	}
	free(next);
	free(hi);
	free(cpu);
	return ret;
}

/* Walk every buffer in time order on this thread. */
static int iterate(struct rr_trace *trace, rr_event_cb cb, void *ctx)
{
	int ret;

	trace->cb = cb;
	trace->ctx = ctx;
	trace->cb_ret = 0;
	trace->records = 0;
	for (int i = 0; i < trace->nr_handles; i++) {
		struct buffer *b = &trace->buffers[i];

		memset(b->first_offset, 0, (size_t)b->nr_cpus * sizeof(*b->first_offset));
		memset(b->last_offset, 0, (size_t)b->nr_cpus * sizeof(*b->last_offset));
		memset(b->seen_ts, 0, (size_t)b->nr_cpus * sizeof(*b->seen_ts));
	}
	trace->damage_until_ns = 0;
	/* (the counters count from the open: it loads each CPU's first page) */
	trace->refused_seen = 0;
	trace->info.damaged_cpus = 0;
	trace->info.damaged_cpus_read = 0;
	trace->info.damage_from_ns = 0;
	trace->info.backwards_records = 0;
	rr_trace_info_progress(&trace->info, 0);
	/* tracecmd_open() and tracecmd_buffer_instance_handle() already
	 * loaded the data sections */
	ret = merge_walk(trace);
	trace->info.odd_pages = __atomic_load_n(&page_layout.odd_pages, __ATOMIC_RELAXED);
	trace->info.first_odd_page_ns = page_layout.first_odd_ts;
	trace->info.bad_pages = __atomic_load_n(&page_layout.bad_pages, __ATOMIC_RELAXED);
	trace->info.first_bad_page_ns = page_layout.first_bad_ts;
	publish_walked(trace);
	if (trace->cb_ret)
		return trace->cb_ret;
	return ret < 0 ? RR_TRACE_READ_ERROR : 0;
}

struct reading {
	struct rr_trace *trace;
	struct rr_pipe *pipe;
};

static int put(const struct rr_event *ev, void *ctx)
{
	return rr_pipe_put(ctx, ev);
}

static void *reading_thread(void *arg)
{
	struct reading *rd = arg;
	int ret = iterate(rd->trace, put, rd->pipe);

	/* (a failed put means the consumer stopped: it keeps its own value) */
	rr_pipe_close(rd->pipe, ret);
	return NULL;
}

/*
 * The walk with libtracecmd on a thread of its own, the callback on this
 * one: a trace is read at the speed of the slower of the two instead of
 * their sum.  Falls back to one thread if none can be made.
 */
static int iterate_threaded(struct rr_trace *trace, rr_event_cb cb, void *ctx)
{
	struct reading rd = { .trace = trace, .pipe = rr_pipe_new() };
	pthread_t thread;
	int ret;

	if (!rd.pipe || pthread_create(&thread, NULL, reading_thread, &rd)) {
		rr_pipe_free(rd.pipe);
		return iterate(trace, cb, ctx);
	}
	ret = rr_pipe_drain(rd.pipe, cb, ctx);
	pthread_join(thread, NULL);
	rr_pipe_free(rd.pipe);
	return ret;
}

int rr_trace_for_each(struct rr_trace *trace, rr_event_cb cb, void *ctx,
		      struct rr_error *err)
{
	int ret;

	trace->info.nr_skipped_events = 0;
	trace->info.malformed_events = 0;
	trace->info.no_format_records = 0;
	trace->info.first_malformed[0] = 0;
	trace->info.nr_field_problems = 0;
	trace->info.field_problems_other = 0;
	for (int i = 0; i < trace->info.nr_skipped_names; i++)
		trace->info.skipped[i].count = 0;
	if (trace->text)
		return rr_text_for_each(trace->text, &trace->info, cb, ctx, err);
	/* format-parsing complaints of the open (unrelated events whose print
	 * formats use unknown helpers) are normal; count only data problems */
	memset(&lib_diag, 0, sizeof(lib_diag));
	ret = trace->threaded ? iterate_threaded(trace, cb, ctx) : iterate(trace, cb, ctx);
	if (ret == RR_TRACE_READ_ERROR) {
		rr_error_set(err, trace->path, "cannot read the event data");
		return -1;
	}
	if (ret == RR_TRACE_OOM) {
		rr_error_set(err, trace->path, "out of memory");
		return -1;
	}
	return ret;
}

void rr_trace_close(struct rr_trace *t)
{
	if (!t)
		return;
	for (int i = 0; t->buffers && i < t->nr_handles; i++) {
		for (int id = 0; id < t->buffers[i].nr_ids; id++)
			free(t->buffers[i].by_id[id]);
		free(t->buffers[i].by_id);
		free(t->buffers[i].first_offset);
		free(t->buffers[i].last_offset);
		free(t->buffers[i].end_ts);
		free(t->buffers[i].seen_ts);
	}
	free(t->buffers);
	free(t->probe_ends);
	rr_text_close(t->text);
	if (t->spool) {
		unlink(t->spool);
		rr_cleanup_forget_path(t->spool);
		free(t->spool);
	}
	/* an instance handle holds a reference on its parent (handles[0]):
	 * close them first, then the parent */
	for (int i = 1; t->handles && i < t->nr_handles; i++)
		tracecmd_close(t->handles[i]);
	if (t->handle)
		tracecmd_close(t->handle);
	free(t->handles);
	free(t->path);
	free(t);
}

/* "-", a pipe, a FIFO, a character device: cannot be read twice or seeked */
static bool is_stream(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-"))
		return true;
	return !stat(path, &st) && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) ||
				    S_ISSOCK(st.st_mode));
}

/*
 * Copy a stream into an unnamed-looking temporary file.  A FIFO is opened
 * without blocking, so one that has no writer reads as empty at once
 * instead of waiting for a writer that may never come.
 */
static int spool(const char *path, char *out, size_t outsz, struct rr_error *err)
{
	const char *dir = getenv("TMPDIR");
	char buf[65536];
	int in, fd, ret = -1;
	ssize_t n;

	snprintf(out, outsz, "%s/reclaim-replay-input.XXXXXX", dir && *dir ? dir : "/tmp");
	if (!strcmp(path, "-")) {
		in = STDIN_FILENO;
	} else {
		in = open(path, O_RDONLY | O_NONBLOCK);
		if (in < 0) {
			rr_error_set(err, path, "cannot open: %s", strerror(errno));
			return -1;
		}
		fcntl(in, F_SETFL, fcntl(in, F_GETFL) & ~O_NONBLOCK);
	}
	rr_cleanup_add_path(out);	/* removed if a signal stops us */
	fd = mkstemp(out);
	rr_cleanup_path_made(out);
	if (fd < 0) {
		rr_error_set(err, path, "cannot make a temporary copy in %s: %s",
			     dir && *dir ? dir : "/tmp", strerror(errno));
		goto out;
	}
	for (;;) {
		n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rr_error_set(err, path, "read error: %s", strerror(errno));
			break;
		}
		if (n == 0) {
			ret = 0;
			break;
		}
		if (write(fd, buf, (size_t)n) != n) {
			rr_error_set(err, path, "cannot copy the input to %s: %s", out,
				     strerror(errno));
			break;
		}
	}
	close(fd);
	if (ret)
		unlink(out);
out:
	if (ret)
		rr_cleanup_forget_path(out);
	if (in != STDIN_FILENO)
		close(in);
	return ret;
}

/* Make the next walk start at the first event again: libtracecmd walks a
 * handle once, so the file is opened anew (keeping the names). */
static int trace_rewind(struct rr_trace *t, struct rr_error *err)
{
	struct rr_trace *n, tmp;

	if (t->text)
		return 0;	/* each walk reads the file afresh */
	n = open_file(t->spool ? t->spool : t->path, err);
	if (!n) {
		if (err)
			snprintf(err->file, sizeof(err->file), "%s", t->path);
		return -1;
	}
	/* keep the names, take the fresh handles */
	tmp = *t;
	*t = *n;
	*n = tmp;
	free(t->path);		/* the fresh open's copy of the name */
	t->path = n->path;
	t->spool = n->spool;
	n->path = NULL;
	n->spool = NULL;
	rr_trace_close(n);
	return 0;
}

struct meta_scan {
	struct rr_trace_info info;
	unsigned int events;
};

/* Stop at the `record` meta marker, or after the first thousand events. */
static int meta_cb(const struct rr_event *ev, void *ctx)
{
	struct meta_scan *ms = ctx;

	if (++ms->events > 1000)
		return 1;
	if (ev->type == RR_EV_MARKER && ev->str) {
		rr_trace_info_meta(&ms->info, ev->str, (size_t)ev->str_len);
		if (ms->info.kernel_release[0])
			return 1;
	}
	return 0;
}

/*
 * A trace.dat without the uname (e.g. after `trace-cmd split`) may still
 * hold the recorder's meta marker, which comes first: read the release
 * from it, then start the walk afresh.
 */
static int dat_release_from_meta(struct rr_trace *t, struct rr_error *err)
{
	struct meta_scan ms;

	if (t->text || t->info.uname[0])
		return 0;
	memset(&ms, 0, sizeof(ms));
	if (rr_trace_for_each(t, meta_cb, &ms, err) < 0 || trace_rewind(t, err))
		return -1;
	memcpy(t->info.kernel_release, ms.info.kernel_release, sizeof(t->info.kernel_release));
	return 0;
}

struct rr_trace *rr_trace_open(const char *path, struct rr_error *err)
{
	char tmp[4096];
	struct rr_trace *t;

	if (!is_stream(path)) {
		t = open_file(path, err);
		if (t && dat_release_from_meta(t, err)) {
			rr_trace_close(t);
			return NULL;
		}
		return t;
	}
	if (spool(path, tmp, sizeof(tmp), err))
		return NULL;
	t = open_file(tmp, err);
	if (!t) {
		unlink(tmp);
		rr_cleanup_forget_path(tmp);
		if (err)	/* name what the user gave, not the copy */
			snprintf(err->file, sizeof(err->file), "%s", path);
		return NULL;
	}
	free(t->path);
	t->path = strdup(path);
	t->spool = strdup(tmp);
	if (t->spool)
		rr_cleanup_add_path(t->spool);
	else
		unlink(tmp);
	rr_cleanup_forget_path(tmp);
	if (!t->path || !t->spool) {
		rr_error_set(err, path, "out of memory");
		rr_trace_close(t);
		return NULL;
	}
	if (t->text)
		rr_text_set_name(t->text, path);
	if (dat_release_from_meta(t, err)) {
		rr_trace_close(t);
		return NULL;
	}
	return t;
}

