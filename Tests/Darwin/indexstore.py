"""The toolchain's index store, read through its C library (`libIndexStore.so`, `indexstore.h`).

Only what the availability check needs: for every compiled source file, each symbol it references, with the
line and column (UTF-8 bytes, 1-based) where it does. The `*_apply_f` entry points take C callbacks, so no
blocks runtime is needed.
"""

import ctypes
import os

# indexstore.h: INDEXSTORE_UNIT_DEPENDENCY_RECORD, INDEXSTORE_SYMBOL_ROLE_*.
DEPENDENCY_RECORD = 2
ROLE_DECLARATION = 1 << 0
ROLE_DEFINITION = 1 << 1
ROLE_REFERENCE = 1 << 2
ROLE_IMPLICIT = 1 << 8


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    def text(self):
        return ctypes.string_at(self.data, self.length).decode("utf-8", "replace") if self.length else ""


_UNIT_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, StringRef)
_POINTER_APPLIER = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)


def _library(toolchain_lib):
    lib = ctypes.CDLL(os.path.join(toolchain_lib, "libIndexStore.so"))
    signatures = {
        "indexstore_error_get_description": ([ctypes.c_void_p], ctypes.c_char_p),
        "indexstore_store_create": ([ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)], ctypes.c_void_p),
        "indexstore_store_dispose": ([ctypes.c_void_p], None),
        "indexstore_store_units_apply_f": ([ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p, _UNIT_APPLIER],
                                           ctypes.c_bool),
        "indexstore_unit_reader_create": ([ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)],
                                          ctypes.c_void_p),
        "indexstore_unit_reader_dispose": ([ctypes.c_void_p], None),
        "indexstore_unit_reader_get_main_file": ([ctypes.c_void_p], StringRef),
        "indexstore_unit_reader_get_module_name": ([ctypes.c_void_p], StringRef),
        "indexstore_unit_reader_is_system_unit": ([ctypes.c_void_p], ctypes.c_bool),
        "indexstore_unit_reader_dependencies_apply_f": ([ctypes.c_void_p, ctypes.c_void_p, _POINTER_APPLIER],
                                                        ctypes.c_bool),
        "indexstore_unit_dependency_get_kind": ([ctypes.c_void_p], ctypes.c_int),
        "indexstore_unit_dependency_get_name": ([ctypes.c_void_p], StringRef),
        "indexstore_unit_dependency_get_filepath": ([ctypes.c_void_p], StringRef),
        "indexstore_record_reader_create": ([ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)],
                                            ctypes.c_void_p),
        "indexstore_record_reader_dispose": ([ctypes.c_void_p], None),
        "indexstore_record_reader_occurrences_apply_f": ([ctypes.c_void_p, ctypes.c_void_p, _POINTER_APPLIER],
                                                         ctypes.c_bool),
        "indexstore_occurrence_get_symbol": ([ctypes.c_void_p], ctypes.c_void_p),
        "indexstore_occurrence_get_roles": ([ctypes.c_void_p], ctypes.c_uint64),
        "indexstore_occurrence_get_line_col": ([ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint),
                                                ctypes.POINTER(ctypes.c_uint)], None),
        "indexstore_symbol_get_usr": ([ctypes.c_void_p], StringRef),
    }
    for name, (arguments, result) in signatures.items():
        function = getattr(lib, name)
        function.argtypes = arguments
        function.restype = result
    return lib


class IndexStore:
    """An index store that `swift build` wrote (`.build/debug/index/store`)."""

    def __init__(self, path, toolchain_lib):
        self.lib = _library(toolchain_lib)
        error = ctypes.c_void_p()
        self.store = self.lib.indexstore_store_create(path.encode(), ctypes.byref(error))
        if not self.store:
            raise RuntimeError(f"cannot open the index store {path}: {self._describe(error)}")

    def _describe(self, error):
        return self.lib.indexstore_error_get_description(error).decode() if error else "unknown error"

    def units(self):
        """Each unit of a source file: `(main file, module name, [record names])`, system units left out."""
        names = []
        applier = _UNIT_APPLIER(lambda _, name: names.append(name.text()) or True)
        self.lib.indexstore_store_units_apply_f(self.store, 0, None, applier)
        for name in names:
            error = ctypes.c_void_p()
            reader = self.lib.indexstore_unit_reader_create(self.store, name.encode(), ctypes.byref(error))
            if not reader:
                raise RuntimeError(f"cannot read the index unit {name}: {self._describe(error)}")
            try:
                if self.lib.indexstore_unit_reader_is_system_unit(reader):
                    continue
                main_file = self.lib.indexstore_unit_reader_get_main_file(reader).text()
                module = self.lib.indexstore_unit_reader_get_module_name(reader).text()
                records = []

                def dependency(_, pointer):
                    if self.lib.indexstore_unit_dependency_get_kind(pointer) == DEPENDENCY_RECORD:
                        path = self.lib.indexstore_unit_dependency_get_filepath(pointer).text()
                        if path == main_file:
                            records.append(self.lib.indexstore_unit_dependency_get_name(pointer).text())
                    return True

                self.lib.indexstore_unit_reader_dependencies_apply_f(reader, None, _POINTER_APPLIER(dependency))
                if main_file:
                    yield main_file, module, records
            finally:
                self.lib.indexstore_unit_reader_dispose(reader)

    def references(self, record):
        """Every reference the source spells in a record: `(usr, line, column)`. Declarations, definitions and
        implicit references are left out: the compiler picks those itself (a `for await` loop calls
        `next(isolation:)` only where the deployment target has it, `next()` elsewhere)."""
        error = ctypes.c_void_p()
        reader = self.lib.indexstore_record_reader_create(self.store, record.encode(), ctypes.byref(error))
        if not reader:
            raise RuntimeError(f"cannot read the index record {record}: {self._describe(error)}")
        found = []
        line, column = ctypes.c_uint(), ctypes.c_uint()

        def occurrence(_, pointer):
            roles = self.lib.indexstore_occurrence_get_roles(pointer)
            if roles & ROLE_REFERENCE and not roles & (ROLE_DECLARATION | ROLE_DEFINITION | ROLE_IMPLICIT):
                symbol = self.lib.indexstore_occurrence_get_symbol(pointer)
                self.lib.indexstore_occurrence_get_line_col(pointer, ctypes.byref(line), ctypes.byref(column))
                found.append((self.lib.indexstore_symbol_get_usr(symbol).text(), line.value, column.value))
            return True

        try:
            self.lib.indexstore_record_reader_occurrences_apply_f(reader, None, _POINTER_APPLIER(occurrence))
        finally:
            self.lib.indexstore_record_reader_dispose(reader)
        return found
