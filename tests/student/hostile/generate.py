"""Writes the hostile corpus, tests/student/hostile/*.cu (issue 36), which
tests/student/hostile_test.cpp and tests/gui/student_hostile_check.sh run.

    python3 tests/student/hostile/generate.py [OUT_DIR]     (default: this folder)

Each file is the tiled-matmul exercise's reference solution (or another kernel that is
right without its hostile part) with one hostile part. In an entry's text, a line that
ends with '//<' is a line the refusal may name: the mark is removed and the file's header
gets '// expect-line: N' (several marks: N1|N2). Edit the entries here and run this again,
so that the line numbers in the headers stay right; the committed files are its output.
"""
import os, sys
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
KERNEL_HEAD = """#define TILE_WIDTH 16

__global__ void matmulTiled(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
"""
KERNEL_LOOP = """    for (int ph = 0; ph < k / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = M[Row * k + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * l + Col];
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += Mds[ty][i] * Nds[i][tx];
        __syncthreads();
    }
"""
KERNEL_TAIL = """    P[Row * l + Col] = Pvalue;
}
"""
def kernel(hook="", after="", define=True):
    head = KERNEL_HEAD if define else KERNEL_HEAD.replace("#define TILE_WIDTH 16\n\n", "")
    return head + hook + KERNEL_LOOP + after + KERNEL_TAIL

def write(name, what, body, limit=None, extra=()):
    lines = body.split("\n")
    header = ["// hostile: " + what]
    marked = [i for i, l in enumerate(lines) if l.rstrip().endswith("//<")]
    nhead = 1 + (1 if marked else 0) + (1 if limit else 0) + len(extra)
    if marked:
        header.append("// expect-line: " + "|".join(str(i + 1 + nhead) for i in marked))
    if limit:
        header.append("// expect-limit: " + limit)
    header += list(extra)
    assert len(header) == nhead
    lines = [l.rstrip()[:-3].rstrip() if l.rstrip().endswith("//<") else l for l in lines]
    text = "\n".join(header + lines)
    if not text.endswith("\n"): text += "\n"
    with open(os.path.join(OUT, name + ".cu"), "w") as f: f.write(text)

MK = "/tmp/tilescope-hostile-marker"
SECRET = "/tmp/tilescope-hostile-secret.txt"
CANARY = "/tmp/tilescope-hostile-canary"
ONCE = "    if (Row == 0 && Col == 0) "

# ---- calls of the C library, declared every way C++ allows ----
write("system_extern_c", "system() declared extern \"C\" at file scope and called from the kernel",
      'extern "C" int system(const char*);  //<\n\n' +
      kernel(ONCE + 'system("touch ' + MK + '; rm -rf ' + CANARY + '");\n'))
write("extern_c_block_static_init", "a static initialiser inside an extern \"C\" block calls system() when the module is opened",
      'extern "C" {  //<\nint system(const char*);\nstatic int tilescope_boot = system("touch ' + MK + '");\n}\n\n' + kernel())
write("macro_hides_extern", "extern \"C\" hidden behind a macro, then system() called from the kernel",
      '#define LINKAGE extern "C"  //<\nLINKAGE int system(const char*);  //<\n\n' +
      kernel(ONCE + 'system("touch ' + MK + '");\n'))
write("fork_extern_c_block", "fork() declared in an extern \"C\" block and called by one thread of the kernel",
      'extern "C" {  //<\nint fork(void);\n}\n\n' +
      kernel(ONCE + 'fork();\n'))
write("execve_device_helper", "execve() of a shell that creates a file, reached through a __device__ helper",
      'extern "C" int execve(const char*, char* const*, char* const*);  //<\n\n'
      '__device__ void spawn()\n{\n'
      '    char* argv[] = {const_cast<char*>("sh"), const_cast<char*>("-c"), const_cast<char*>("touch ' + MK + '; rm -rf ' + CANARY + '"), nullptr};\n'
      '    execve("/bin/sh", argv, nullptr);\n}\n\n' +
      kernel(ONCE + 'spawn();\n'))
write("socket_block_scope_asm_label", "socket() declared at block scope inside the kernel under an asm label, and called",
      kernel('    int sock(int, int, int) __asm__("socket");  //<\n' + ONCE + 'sock(2, 1, 0);\n'))
write("dlopen_declared_by_macro", "dlopen() declared through a macro that expands to an extern \"C\" declaration",
      '#define DECLARE(ret, name, ...) extern "C" ret name(__VA_ARGS__);  //<\nDECLARE(void*, dlopen, const char*, int)  //<\n\n' +
      kernel(ONCE + 'dlopen("' + MK + '.so", 2);\n'))
write("getenv_namespace_qualified", "getenv() declared extern \"C\" in a namespace and called with :: qualification",
      'namespace sys { extern "C" char* getenv(const char*); }  //<\n\n' +
      kernel('    const char* home = ::sys::getenv("HOME");\n'
             '    if (home && Row == 0 && Col == 0) Pvalue += home[0];\n'))
write("signal_function_pointer", "signal() through a function pointer ignores SIGXCPU and SIGALRM, then the kernel spins",
      'extern "C" void (*signal(int, void (*)(int)))(int);  //<\n\n' +
      kernel('    void (*(*install)(int, void (*)(int)))(int) = &::signal;\n'
             '    install(24, (void (*)(int))1);\n    install(14, (void (*)(int))1);\n'
             '    while (Row >= 0) Pvalue += 1.0f;\n'))
write("syscall_auto_decltype", "syscall() held in an auto variable and a decltype copy, creating a file with SYS_creat",
      'extern "C" long syscall(long, ...);  //<\n\n' +
      kernel('    auto sys = &::syscall;\n    decltype(sys) again = sys;\n' +
             ONCE + 'again(85, "' + MK + '", 0644);\n'))
write("open_write_file_scope", "open() and write() declared at file scope (one through a type alias), creating and writing a file",
      'extern "C" int open(const char*, int, ...);  //<\nusing write_fn = long(int, const void*, unsigned long);\nextern "C" write_fn write;\n\n' +
      kernel(ONCE + '{\n        int fd = open("' + MK + '", 0101, 0644);\n        write(fd, "x", 1);\n    }\n'))
write("write_flood_stdout", "write() to standard output in a loop that never ends",
      'extern "C" long write(int, const void*, unsigned long);  //<\n\n' +
      kernel('    for (;;) write(1, "flood flood flood flood flood flood\\n", 36);\n'))
write("proc_self_environ_fopen", "fopen and fread of /proc/self/environ, the bytes handed back in P",
      'extern "C" {  //<\nstruct FILE;\nFILE* fopen(const char*, const char*);\nunsigned long fread(void*, unsigned long, unsigned long, FILE*);\n}\n\n' +
      kernel('    char env[64] = {};\n    if (FILE* f = fopen("/proc/self/environ", "r")) fread(env, 1, sizeof env, f);\n',
             '    Pvalue += env[tx % 64];\n'))
write("proc_self_maps_helper_block_scope", "open and read of /proc/self/maps from a __device__ helper whose block-scope declarations carry asm labels",
      '__device__ float mapsByte(int i)\n{\n'
      '    int open(const char*, int) __asm__("open");  //<\n'
      '    long read(int, void*, unsigned long) __asm__("read");\n'
      '    char maps[256] = {};\n    read(open("/proc/self/maps", 0), maps, sizeof maps);\n'
      '    return maps[i % 256];\n}\n\n' +
      kernel('', '    Pvalue += mapsByte(tx) * 0.0f;\n'))
write("environ_variable", "the process environment read through a file-scope extern variable",
      'extern char** environ;  //<\n\n' +
      kernel('', '    Pvalue += environ[0][tx % 8];\n'))

# ---- code that runs when the module is opened ----
write("asm_init_array", "a file-scope asm block that puts a function creating a file into .init_array",
      'asm(".pushsection .rodata\\n"  //<\n'
      '    "tilescope_hostile_path: .asciz \\"' + MK + '\\"\\n"\n'
      '    ".popsection\\n"\n'
      '    ".pushsection .text\\n"\n'
      '    "tilescope_hostile_boot:\\n"\n'
      '    "  lea tilescope_hostile_path(%rip), %rdi\\n"\n'
      '    "  mov $0644, %esi\\n"\n'
      '    "  mov $85, %eax\\n"\n'
      '    "  syscall\\n"\n'
      '    "  ret\\n"\n'
      '    ".popsection\\n"\n'
      '    ".pushsection .init_array, \\"aw\\"\\n"\n'
      '    "  .quad tilescope_hostile_boot\\n"\n'
      '    ".popsection\\n");\n\n' + kernel())
write("asm_syscall_in_kernel", "an __asm__ statement inside the kernel makes the creat system call",
      kernel(ONCE + '{\n        long ret;\n'
             '        __asm__ volatile("syscall" : "=a"(ret) : "a"(85L), "D"("' + MK + '"), "S"(0644L) : "rcx", "r11", "memory");  //<\n'
             '    }\n'))
write("attribute_constructor", "__attribute__((constructor)) prints a fake verdict and aborts the process that opens the module",
      '__attribute__((constructor)) static void tilescope_boot()  //<\n{\n'
      '    __builtin_printf("PASS compiles\\nverdict: PASS\\n");\n    __builtin_abort();\n}\n\n' + kernel())
write("gnu_constructor", "[[gnu::constructor]] on a function that spins forever when the module is opened",
      '[[gnu::constructor]] static void tilescope_boot()  //<\n{\n    for (volatile int i = 0; i >= 0; i = 0) {}\n}\n\n' + kernel())
write("init_array_section", "a function pointer placed in .init_array through __attribute__((section))",
      '__device__ void tilescope_boot() { __syncthreads(); }\n'
      '__attribute__((section(".init_array"), used)) static void (*tilescope_entry)() = tilescope_boot;  //<\n\n' + kernel())
write("device_variable_initialiser", "a file-scope __device__ variable whose initialiser prints when the module is opened",
      '__device__ int tilescope_boot = __builtin_printf("printed while opening\\n");  //<\n\n' + kernel())

# ---- files read by the preprocessor ----
write("include_secret_absolute", "#include of an absolute path, to see that file's text in the diagnosis",
      '#include "' + SECRET + '"  //<\n' + kernel())
write("include_dev_stdin", "#include of /dev/stdin, which would wait for input forever",
      '#include "/dev/stdin"  //<\n' + kernel())
write("include_dev_zero", "#include of /dev/zero, an endless file",
      '#include "/dev/zero"  //<\n' + kernel())
write("include_next_stdlib", "#include_next of stdlib.h for system(), called from the kernel",
      '#include_next <stdlib.h>  //<\n' + kernel(ONCE + 'system("touch ' + MK + '");\n'))
write("include_angle_cstdlib", "#include <cstdlib> for std::system, called from the kernel",
      '#include <cstdlib>  //<\n' + kernel(ONCE + 'std::system("touch ' + MK + '");\n'))
write("import_secret", "#import of an absolute path",
      '#import "' + SECRET + '"  //<\n' + kernel())
write("embed_secret", "#embed of an absolute path into a local array",
      kernel('    const unsigned char bytes[] = {\n#embed "' + SECRET + '"  //<\n    };\n',
             '    Pvalue += bytes[tx % 8] * 0.0f;\n'))
write("has_include_oracle", "__has_include of an absolute path chooses the tile, telling whether that file exists",
      '#if __has_include("' + SECRET + '")  //<\n#define TILE_WIDTH 16\n#else\n#define TILE_WIDTH 8\n#endif\n\n' + kernel(define=False))
write("digraph_include", "an #include spelt with the %: digraph",
      '%:include "' + SECRET + '"  //<\n' + kernel())
write("include_hidden_by_splice", "an #include whose directive name is split by a comment and a line splice",
      '#/**/inc\\  //<\nlude "' + SECRET + '"  //<\n' + kernel())

# ---- pragmas ----
write("pragma_gcc_dependency", "#pragma GCC dependency on an absolute path",
      '#pragma GCC dependency "' + SECRET + '"  //<\n' + kernel())
write("pragma_gcc_optimize", "#pragma GCC optimize before the kernel",
      '#pragma GCC optimize("O0")  //<\n' + kernel())
write("underscore_pragma", "_Pragma at file scope, outside any #pragma line",
      '_Pragma("GCC dependency \\"' + SECRET + '\\"")  //<\n' + kernel())

# ---- builtins ----
write("builtin_malloc", "__builtin_malloc and __builtin_memset take 64 MiB per thread",
      kernel('    if (ty == 0) __builtin_memset(__builtin_malloc(1 << 26), 1, 1 << 26);  //<\n'))
write("builtin_trap", "__builtin_trap in one thread",
      kernel('    if (Row == 5) __builtin_trap();  //<\n'))
write("builtin_alloca", "__builtin_alloca of 4 MiB on a thread's stack, then written",
      kernel('    float* stackBomb = (float*)__builtin_alloca(1 << 22);  //<\n    stackBomb[tx * 1000] = Pvalue;\n    Pvalue = stackBomb[tx * 1000];\n'))
write("builtin_printf_flood", "__builtin_printf in a loop that never ends",
      kernel('    for (;;) __builtin_printf("%s\\n", "flood flood flood flood flood flood");  //<\n'))
write("token_paste_builtin", "__builtin_trap assembled by token pasting, so that no token spells it",
      '#define GLUE(a, b) a##b  //<\n' + kernel('    if (Row == 3) GLUE(__buil, tin_trap)();  //<\n'))

# ---- declarations outside the subset ----
write("template_namespace_recursion", "a namespace and a __device__ template that instantiates itself without end",
      'namespace hostile {  //<\ntemplate <int D> __device__ float unrolled(float x) { return unrolled<D + 1>(x) + x; }\n}\n\n' +
      kernel('', '    Pvalue += hostile::unrolled<0>(0.0f) * 0.0f;\n'))
write("static_local", "a static local in the kernel, shared by every thread and kept from one run to the next",
      kernel('    static int calls = 0;  //<\n    ++calls;\n', '    Pvalue += calls * 0.0f;\n'))
write("string_literal", "a string literal read as floats",
      kernel('    const float* bytes = reinterpret_cast<const float*>("' + MK + '");  //<\n',
             '    Pvalue += bytes[tx % 4] * 0.0f;\n'))
write("exception_throw", "a C++ exception thrown out of the kernel by one thread",
      kernel('    if (Row == 2 && Col == 2) throw 42;  //<\n'))

# ---- recursion ----
write("device_recursion", "a __device__ helper that calls itself without end",
      '__device__ float deeper(float x, int n)\n{\n    return deeper(x + 1.0f, n + 1) * 0.5f;  //<\n}\n\n' +
      kernel('', '    Pvalue += deeper(0.0f, 0) * 0.0f;\n'))
write("mutual_recursion", "two __device__ helpers calling each other without end, through a declaration without a body",
      '__device__ float ping(float x);  //<\n__device__ float pong(float x) { return ping(x + 1.0f); }\n'
      '__device__ float ping(float x) { return pong(x * 0.5f); }\n\n' +
      kernel('', '    Pvalue += ping(0.0f) * 0.0f;\n'))

# ---- legal-looking kernels that misbehave when run ----
# Its threads keep reading M: the simulator's read budget stops it as a fault on its line.
write("endless_loop", "a loop whose counter never moves",
      kernel('', '    for (int s = 0; s < k; ) Pvalue += M[Row * k + s];  //<\n'), limit="time|memory|longer than|never ends")
write("shared_past_48kb", "a __shared__ array of 51 200 bytes, more than a block may declare statically",
      kernel('    __shared__ float Huge[16][800];  //<\n    Huge[ty][tx] = 0.0f;\n    __syncthreads();\n',
             '    Pvalue += Huge[ty][tx];\n'))
write("pointer_far_global", "a pointer into M moved a billion elements past its end, then read",
      kernel('    const float* far = M + 1000000000;  //<\n', '    Pvalue += far[tx] * 0.0f;  //<\n'))
write("pointer_far_local", "a pointer into a 4-float local array moved 400 KB away, then written",
      kernel('    float near4[4] = {0.0f, 0.0f, 0.0f, 0.0f};\n    float* aim = near4 + 100000;  //<\n    aim[tx] = Pvalue;  //<\n',
             '    Pvalue += near4[tx % 4];\n'))

# ---- sizes and depths ----
write("expression_65000_terms", "one statement of 65 000 terms on a single line (python: '+'.join(['0'] * 65000))",
      kernel('    int noise = ' + '+'.join(['0'] * 65000) + ';  //<\n', '    Pvalue += noise;\n'))
write("nested_macros_1kb", "1 KB of nested calls of a function-like macro on one line",
      '#define F(x) ((x) + 0)\n' + kernel('    int depth = ' + 'F(' * 340 + '0' + ')' * 340 + ';  //<\n', '    Pvalue += depth;\n'))
bomb = ''.join('#define B%d (B%d + B%d)\n' % (i, i - 1, i - 1) for i in range(1, 49))
write("define_expansion_bomb", "48 #defines, each twice the one before, expand to 2^48 tokens where the last is used",
      '#define B0 1\n' + bomb + kernel('    int bomb = B48;  //<\n', '    Pvalue += bomb * 0.0f;\n'))
write("deep_parentheses", "5 000 nested parentheses on one line",
      kernel('    Pvalue += ' + '(' * 5000 + '0' + ')' * 5000 + ';  //<\n'))
write("deep_blocks", "3 000 nested blocks on one line",
      kernel('    ' + '{' * 3000 + ' Pvalue += 0.0f; ' + '}' * 3000 + '  //<\n'))
write("oversize_file", "a legal kernel made larger than the size allowed by a trailing comment (the test pads it to 300 000 characters)",
      kernel(), limit="KiB|bytes", extra=("// pad-to: 300000",))

# ---- per-thread local arrays a GPU allows (CUDA: 512 KiB a thread) ----
write("local_array_80kb", "a per-thread local array of 20 000 floats (80 000 B) filled and read in the kernel",
      kernel('    float big[20000];\n    for (int i = 0; i < 20000; ++i) big[i] = (float)(i * (tx + 1));\n',
             '    int pick = (Row * 131 + Col * 7) % 20000;\n    Pvalue += big[pick] - big[pick];\n'),
      limit="KiB|KB|bytes", extra=("// may-run: yes", "// expect-name: big"))
write("local_array_68kb_helper", "a per-thread local array of 17 000 floats (68 000 B) in a __device__ helper",
      '__device__ float scratchZero(int seed)\n{\n    float scratch[17000];\n'
      '    for (int i = 0; i < 17000; ++i) scratch[i] = (float)(i ^ seed);\n'
      '    int pick = (seed * 37) % 17000;\n    return scratch[pick] - scratch[pick];\n}\n\n' +
      kernel('', '    Pvalue += scratchZero(Row * 64 + Col);\n'),
      limit="KiB|KB|bytes", extra=("// may-run: yes", "// expect-name: scratch"))

# ---- spellings that hide a construct from a scan of characters ----
write("trigraph_include", "an #include spelt with the ??= trigraph, which some compilers still read as #",
      '??=include "' + SECRET + '"  //<\n' + kernel())
write("splice_builtin_name", "__builtin_trap split by a line splice between its two leading underscores",
      kernel('    if (Row == 3) _\\  //<\n_builtin_trap();  //<\n'))
write("splice_comment_hides_bounds_check", "a backslash at the end of a // comment turns the next line, the bounds check, into comment, so the kernel writes past P",
      "#define TILE_WIDTH 16\n\n__global__ void matmulTiled(const float* M, const float* N, float* P, int j, int k, int l)\n{\n"
      "    int tx = threadIdx.x; int ty = threadIdx.y;\n    int Row = blockIdx.y * TILE_WIDTH + ty;\n"
      "    int Col = blockIdx.x * TILE_WIDTH + tx;\n    float Pvalue = 0;\n    // only inside P \\  //<\n"
      "    if (Row < j && Col < l)\n    {\n        for (int i = 0; i < k; ++i) Pvalue += M[Row * k + i] * N[i * l + Col];\n"
      "        P[Row * l + Col] = Pvalue;\n    }\n}\n")
write("splice_extern", "extern \"C\" split by a line splice, then system() called from the kernel",
      'ext\\  //<\nern "C" int system(const char*);  //<\n\n' + kernel(ONCE + 'system("touch ' + MK + '");\n'))

# ---- sizes a file's own declarations and header lines ask for ----
write("alignas_local_array", "a local array aligned to 256 MiB (alignas), which put it far past its thread's stack",
      kernel("    alignas(268435456) float Pbuf[4] = {0, 0, 0, 0};  //<\n    Pvalue += Pbuf[tx % 4];\n"))
CONV = """#define MAX_MASK_WIDTH 9
#define TILE_SIZE 8
__constant__ float M[268435456];  //<

__global__ void conv1dTiled(const float* N, float* P, int Mask_Width, int Width)
{
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = Mask_Width / 2;

    int halo_index_left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x >= blockDim.x - n)
        N_ds[threadIdx.x - (blockDim.x - n)] = (halo_index_left < 0) ? 0.0f : N[halo_index_left];
    N_ds[n + threadIdx.x] = (i < Width) ? N[i] : 0.0f;
    int halo_index_right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x < n)
        N_ds[n + blockDim.x + threadIdx.x] = (halo_index_right >= Width) ? 0.0f : N[halo_index_right];
    __syncthreads();

    float Pvalue = 0;
    for (int jj = 0; jj < Mask_Width; jj++)
        Pvalue += N_ds[threadIdx.x + jj] * M[jj];
    if (i < Width) P[i] = Pvalue;
}
"""
write("constant_mask_huge", "a __constant__ mask of 2^28 floats (1 GiB; a GPU has 64 KiB of constant memory)", CONV,
      extra=("// exercise: conv1d-tiled-halo", "// simulate-args: --width 64 --mask-width 5"))
write("launch_header_huge_grid", "a launch header line asking for 65535 x 65535 x 65535 blocks",
      '// tilescope: block = TILE_WIDTH, TILE_WIDTH\n// tilescope: grid = 65535, 65535, 65535\n' + kernel(),
      limit="memory|grid")
write("args_header_60000_entries", "an argument list (args) of 60 000 entries, each the array M, on one header line",
      '// tilescope: args = ' + ', '.join(['M'] * 60000) + '  //<\n' + kernel())
write("launch_header_deep_parens", "a launch header line whose grid expression nests 20 000 parentheses",
      '// tilescope: block = 16, 16\n// tilescope: grid = ' + '(' * 20000 + '2' + ')' * 20000 + ', 2  //<\n' + kernel())
VADD = """// tilescope: family = array
// tilescope: arrays = in A[n], in B[n], out C[n]
// tilescope: sizes = n = 2000000000  //<
// tilescope: reference = C[i] = A[i] + B[i]
// tilescope: grid = (n + 255) / 256
// tilescope: block = 256
__global__ void vecAddKernel(float* A, float* B, float* C, int n)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i < n) {
        C[i] = A[i] + B[i];
    }
}
"""
write("array_header_huge_size", "an array problem whose header asks for three arrays of two billion floats (grade uses the exercise's sizes)",
      VADD, extra=("// only: simulate", "// simulate-args:"))
write("array_formula_int_min_division",
      "an array problem whose reference formula divides INT_MIN by -1 and by zero: integer division traps (SIGFPE) "
      "in the process that evaluates it, which reads the formula before any child runs (grade uses the exercise's formula)",
      VADD.replace("n = 2000000000  //<", "n = 300").replace("reference = C[i] = A[i] + B[i]",
                   "reference = C[i] = A[i] + B[(-2147483647 - 1) / (n - 301) % n] + B[i / (n - n)]  //<"),
      extra=("// only: simulate", "// simulate-args:"))
