# rtready: the two commands of the README, on a fresh Debian machine as root.
#   make run   install what is missing, build, run the main job on this machine
#   make test  install what is missing, build, run every test (also ASan+UBSan, musl)
# `make` alone builds into build/.

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
MUSL_BUILD ?= build-musl
MESON      ?= meson
DIST_BUILD ?= build-dist
DIST_ARCHES ?= x86_64 aarch64 armhf
# Kernel .debs and busybox for the kernel matrix, downloaded once.
KERNEL_CACHE ?= /var/cache/rtready-kernels

# Debian packages needed to build and test (each is checked, only the
# missing ones are installed).
BUILD_DEPS = meson ninja-build pkg-config gcc libcmocka-dev libjansson-dev zlib1g-dev \
	libtracefs-dev libtraceevent-dev
TEST_DEPS  = clang libclang-rt-14-dev musl-tools rt-tests stress-ng \
	libxml2-utils chromium procps util-linux python3 python3-jsonschema \
	python3-html5lib tidy strace jackd2 debhelper dpkg-dev fakeroot lintian bash-completion
# The kernel matrix: QEMU (TCG) for each architecture of the tarballs.
KERNEL_DEPS = qemu-system-x86 qemu-system-arm debootstrap

.PHONY: all build deps test-deps run test test-unit test-asan test-fuzz test-musl clean install \
	dist test-kernels

all: build

deps:
	@sh tools/install-deps.sh $(BUILD_DEPS)

test-deps:
	@sh tools/install-deps.sh $(BUILD_DEPS) $(TEST_DEPS)

$(BUILD)/build.ninja:
	$(MESON) setup $(BUILD) --werror

build: deps $(BUILD)/build.ninja
	$(MESON) compile -C $(BUILD)

# The main job: check, latency idle and under load, one verdict. A failed
# verdict (exit 1) is a result, not a broken run; the report path ends the output.
VERIFY_DURATION ?= 5s
run: build
	@rc=0; ./$(BUILD)/src/rtready verify --duration $(VERIFY_DURATION) \
		--report $(BUILD)/report || rc=$$?; [ $$rc -le 1 ] || exit $$rc

$(ASAN_BUILD)/build.ninja:
	$(MESON) setup $(ASAN_BUILD) --werror -Db_sanitize=address,undefined -Db_lundef=false

$(FUZZ_BUILD)/build.ninja:
	CC=clang $(MESON) setup $(FUZZ_BUILD) -Dfuzz=true -Dtests=false

test: test-deps $(BUILD)/build.ninja $(ASAN_BUILD)/build.ninja
	@sh tools/install-deps.sh $(KERNEL_DEPS)
	@DIST_BUILD=$(DIST_BUILD) KERNEL_CACHE=$(KERNEL_CACHE) \
		bash tools/run-tests.sh $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(MUSL_BUILD)

test-fuzz: $(FUZZ_BUILD)/build.ninja
	$(MESON) compile -C $(FUZZ_BUILD)
	$(MESON) test -C $(FUZZ_BUILD) --print-errorlogs --suite fuzz

# Release tarballs dist/rtready-VERSION-ARCH.tar.gz (static binary, checker,
# man pages; relocatable), then a smoke test of this machine's one unpacked
# in a temporary directory. Cross packages are installed when missing.
dist: deps
	@bash tools/dist.sh -b $(DIST_BUILD) $(DIST_ARCHES)
	@bash tools/dist-test.sh dist/rtready-$$(sed -n "s/^[[:space:]]*version : '\([^']*\)'.*/\1/p" meson.build | head -1)-$$(uname -m).tar.gz \
		$(DIST_BUILD)-relocate

# Boot the tarballs on real Debian kernels (PREEMPT_RT and generic) in QEMU
# and judge each scenario (tests/kernels/matrix.py; README: kernel matrix).
# A kernel that cannot be downloaded is a skipped scenario, not a failure.
test-kernels: dist
	@sh tools/install-deps.sh $(KERNEL_DEPS)
	@python3 tests/kernels/matrix.py --dist dist --build-prefix $(DIST_BUILD) \
		--cache $(KERNEL_CACHE)

install: build
	$(MESON) install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(MUSL_BUILD) $(DIST_BUILD)-* dist
