// Reads and writes an origin's IndexedDB databases in the tagged encoding of the state file
// (driver/src/storage_state/indexed_db.rs; web/src/storage_state.rs says when each runs).
// One expression: `(<this file>).save(maxDepth, maxBytes)` or `.load(databases)`. Both answer a
// promise of one externally tagged object the driver reads into a typed enum, and neither
// throws: every refusal names its database and store and the kind of value, never the value.
({
  async save(maxDepth, maxBytes) {
    const KINDS = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
      'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array',
      'BigUint64Array', 'DataView'];
    const toString = Object.prototype.toString;
    let used = 0;
    let where = { database: '', store: '' };
    const refuse = (what) => ({ refusal: { refused: { ...where, what } } });
    const tooLarge = () => ({ refusal: { too_large: { ...where } } });
    const spend = (n) => { used += n; if (used > maxBytes) throw tooLarge(); };
    const base64 = (bytes) => {
      spend(Math.ceil(bytes.length / 3) * 4 + 16);
      let text = '';
      for (let i = 0; i < bytes.length; i += 0x8000) {
        text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
      }
      return btoa(text);
    };
    const seen = new Set();
    const encode = async (v, depth) => {
      if (depth > maxDepth) throw refuse(`a value nested deeper than ${maxDepth} levels`);
      spend(16);
      switch (typeof v) {
        case 'undefined': return { type: 'undefined' };
        case 'boolean': return { type: 'boolean', value: v };
        case 'string': spend(v.length); return { type: 'string', value: v };
        case 'bigint': return { type: 'big_int', value: v.toString() };
        case 'number':
          if (Number.isNaN(v)) return { type: 'special_number', value: 'NaN' };
          if (v === Infinity) return { type: 'special_number', value: 'Infinity' };
          if (v === -Infinity) return { type: 'special_number', value: '-Infinity' };
          if (Object.is(v, -0)) return { type: 'special_number', value: '-0' };
          return { type: 'number', value: v };
        case 'object': break;
        default: throw refuse(`a ${typeof v}`);
      }
      if (v === null) return { type: 'null' };
      if (seen.has(v)) throw refuse('a value that contains itself');
      seen.add(v);
      try {
        const tag = toString.call(v).slice(8, -1);
        if (ArrayBuffer.isView(v)) {
          if (!KINDS.includes(tag)) throw refuse(`a ${tag}`);
          const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
          return { type: 'typed_array', kind: tag, bytes: base64(bytes) };
        }
        switch (tag) {
          case 'Date': {
            const t = v.getTime();
            return { type: 'date', value: Number.isNaN(t) ? null : t };
          }
          case 'RegExp':
            spend(v.source.length);
            return { type: 'reg_exp', source: v.source, flags: v.flags };
          case 'ArrayBuffer': return { type: 'array_buffer', bytes: base64(new Uint8Array(v)) };
          case 'Array': {
            const items = [];
            for (let i = 0; i < v.length; i++) items.push(await encode(v[i], depth + 1));
            return { type: 'array', items };
          }
          case 'Map': {
            const entries = [];
            for (const [key, value] of v) {
              entries.push({ key: await encode(key, depth + 1), value: await encode(value, depth + 1) });
            }
            return { type: 'map', entries };
          }
          case 'Set': {
            const items = [];
            for (const item of v) items.push(await encode(item, depth + 1));
            return { type: 'set', items };
          }
          case 'Blob':
          case 'File': {
            const bytes = base64(new Uint8Array(await v.arrayBuffer()));
            if (tag === 'Blob') return { type: 'blob', mime: v.type, bytes };
            spend(v.name.length);
            return { type: 'file', name: v.name, mime: v.type, last_modified: v.lastModified, bytes };
          }
          case 'Object': {
            if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) {
              throw refuse('an object that is not a plain object');
            }
            const entries = [];
            for (const name of Object.keys(v)) {
              spend(name.length);
              entries.push({ name, value: await encode(v[name], depth + 1) });
            }
            return { type: 'object', entries };
          }
          default: throw refuse(`a ${tag}`);
        }
      } finally {
        seen.delete(v);
      }
    };
    const request = (r) => new Promise((resolve, reject) => {
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const describe = (e) => (e && e.name ? `${e.name}: ${e.message}` : String(e));
    try {
      if (location.origin === 'null' || typeof indexedDB === 'undefined') return { databases: [] };
      const databases = [];
      for (const info of await indexedDB.databases()) {
        where = { database: info.name, store: '' };
        const db = await request(indexedDB.open(info.name));
        try {
          const names = Array.from(db.objectStoreNames);
          const read = [];
          if (names.length > 0) {
            const tx = db.transaction(names, 'readonly');
            const done = new Promise((resolve, reject) => {
              tx.oncomplete = resolve;
              tx.onabort = () => reject(tx.error);
            });
            for (const name of names) {
              const store = tx.objectStore(name);
              const indexes = Array.from(store.indexNames, (n) => {
                const index = store.index(n);
                return { name: n, keyPath: index.keyPath, unique: index.unique, multiEntry: index.multiEntry };
              });
              read.push({
                name, keyPath: store.keyPath, autoIncrement: store.autoIncrement, indexes,
                keys: request(store.getAllKeys()), values: request(store.getAll()),
              });
            }
            await done;
          }
          const objectStores = [];
          for (const store of read) {
            where = { database: info.name, store: store.name };
            const keys = await store.keys;
            const values = await store.values;
            const records = [];
            for (let i = 0; i < keys.length; i++) {
              records.push({ key: await encode(keys[i], 1), value: await encode(values[i], 1) });
            }
            objectStores.push({
              name: store.name, keyPath: store.keyPath, autoIncrement: store.autoIncrement,
              indexes: store.indexes, records,
            });
          }
          databases.push({ name: info.name, version: db.version, objectStores });
        } finally {
          db.close();
        }
      }
      return { databases };
    } catch (e) {
      if (e && e.refusal) return e.refusal;
      return { failed: { ...where, message: describe(e) } };
    }
  },

  async load(databases) {
    const bytes = (text) => {
      const chars = atob(text);
      const out = new Uint8Array(chars.length);
      for (let i = 0; i < chars.length; i++) out[i] = chars.charCodeAt(i);
      return out;
    };
    const special = { 'NaN': NaN, 'Infinity': Infinity, '-Infinity': -Infinity, '-0': -0 };
    const decode = (e) => {
      switch (e.type) {
        case 'undefined': return undefined;
        case 'null': return null;
        case 'boolean': case 'number': case 'string': return e.value;
        case 'special_number': return special[e.value];
        case 'big_int': return BigInt(e.value);
        case 'date': return new Date(e.value === null ? NaN : e.value);
        case 'reg_exp': return new RegExp(e.source, e.flags);
        case 'array_buffer': return bytes(e.bytes).buffer;
        case 'typed_array': {
          const buffer = bytes(e.bytes).buffer;
          return e.kind === 'DataView' ? new DataView(buffer) : new globalThis[e.kind](buffer);
        }
        case 'array': return e.items.map(decode);
        case 'set': return new Set(e.items.map(decode));
        case 'map': return new Map(e.entries.map((m) => [decode(m.key), decode(m.value)]));
        case 'object': {
          const o = {};
          for (const p of e.entries) {
            Object.defineProperty(o, p.name, {
              value: decode(p.value), enumerable: true, writable: true, configurable: true,
            });
          }
          return o;
        }
        case 'blob': return new Blob([bytes(e.bytes)], { type: e.mime });
        case 'file': return new File([bytes(e.bytes)], e.name, { type: e.mime, lastModified: e.last_modified });
        default: throw new TypeError(`a value of type ${e.type}`);
      }
    };
    const describe = (e) => (e && e.name ? `${e.name}: ${e.message}` : String(e));
    let where = { database: '', store: '' };
    try {
      for (const saved of databases) {
        where = { database: saved.name, store: '' };
        const open = indexedDB.open(saved.name, saved.version);
        open.onupgradeneeded = () => {
          const db = open.result;
          for (const s of saved.objectStores) {
            where = { database: saved.name, store: s.name };
            const options = { autoIncrement: s.autoIncrement };
            if (s.keyPath !== null) options.keyPath = s.keyPath;
            const store = db.createObjectStore(s.name, options);
            for (const i of s.indexes) {
              store.createIndex(i.name, i.keyPath, { unique: i.unique, multiEntry: i.multiEntry });
            }
          }
        };
        const db = await new Promise((resolve, reject) => {
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error);
          open.onblocked = () => reject(new Error('another connection blocks its upgrade'));
        });
        try {
          const names = saved.objectStores.map((s) => s.name);
          if (names.length === 0) continue;
          const tx = db.transaction(names, 'readwrite');
          const done = new Promise((resolve, reject) => {
            tx.oncomplete = resolve;
            tx.onabort = () => reject(tx.error);
          });
          try {
            for (const s of saved.objectStores) {
              where = { database: saved.name, store: s.name };
              const store = tx.objectStore(s.name);
              for (const r of s.records) {
                if (s.keyPath === null) store.put(decode(r.value), decode(r.key));
                else store.put(decode(r.value));
              }
            }
          } catch (e) {
            tx.abort();
            done.catch(() => {});
            throw e;
          }
          where = { database: saved.name, store: '' };
          await done;
        } finally {
          db.close();
        }
      }
      return { restored: databases.length };
    } catch (e) {
      return { failed: { ...where, message: describe(e) } };
    }
  },
})
