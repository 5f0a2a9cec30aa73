// The imports asyncify.start_unwind, stop_unwind, start_rewind and stop_rewind of the web
// build's fibers (sim/engine/fiber_emscripten.cpp): Binaryen's Asyncify pass replaces them
// with its own functions, so the wasm never imports them. Emscripten's linker looks them up
// among the JavaScript library's functions before that pass runs, by name only; these stand
// in for it there and are never called.
mergeInto(LibraryManager.library, {
  start_unwind: function() { abort('asyncify.start_unwind was not replaced by the Asyncify pass'); },
  stop_unwind: function() { abort('asyncify.stop_unwind was not replaced by the Asyncify pass'); },
  start_rewind: function() { abort('asyncify.start_rewind was not replaced by the Asyncify pass'); },
  stop_rewind: function() { abort('asyncify.stop_rewind was not replaced by the Asyncify pass'); },
});
