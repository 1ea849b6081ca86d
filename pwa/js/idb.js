// The few IndexedDB calls the outbox needs, as promises. One object store per database.

/** Open (creating on first use) a database whose one store "entries" is keyed by `seq`. */
export function open(name) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => {
      // autoIncrement gives every entry a rising seq: the order they were recorded in.
      const store = request.result.createObjectStore("entries", { keyPath: "seq", autoIncrement: true });
      store.createIndex("command_id", "command_id", { unique: true });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Run fn(store) in one transaction; resolves with fn's request result once committed. */
export function run(db, mode, fn) {
  return new Promise((resolve, reject) => {
    // "strict" asks the browser to flush to disk before reporting success: a judge's stroke
    // must survive the tablet's battery dying right after the tap.
    const tx = db.transaction("entries", mode, { durability: mode === "readwrite" ? "strict" : "default" });
    const request = fn(tx.objectStore("entries"));
    tx.oncomplete = () => resolve(request?.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}
