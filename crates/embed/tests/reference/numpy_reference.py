# A separate numpy implementation of all-MiniLM-L6-v2 (BERT, mean pooling, L2 normalisation)
# that tests/model.rs checks candle against; lower-case ASCII texts only (its WordPiece split
# is simpler than the tokenizer's). Needs numpy alone:
#   python3 numpy_reference.py <model dir> "some text" ...   (prints the first 6 values)
import json, math, struct, sys, re
import numpy as np
D = sys.argv[1]
raw = open(f"{D}/model.safetensors", "rb").read()
n = struct.unpack("<Q", raw[:8])[0]; hdr = json.loads(raw[8:8+n]); base = 8+n
W = {k: np.frombuffer(raw[base+v["data_offsets"][0]:base+v["data_offsets"][1]], dtype=np.float32).reshape(v["shape"]) for k, v in hdr.items() if k != "__metadata__" and v["dtype"] == "F32"}
vocab = json.load(open(f"{D}/tokenizer.json"))["model"]["vocab"]
def wordpiece(text):
    ids = [vocab["[CLS]"]]
    for w in re.findall(r"\w+|[^\w\s]", text.lower()):
        start = 0
        while start < len(w):
            end = len(w)
            while end > start:
                piece = w[start:end] if start == 0 else "##" + w[start:end]
                if piece in vocab: ids.append(vocab[piece]); break
                end -= 1
            else:
                ids.append(vocab["[UNK]"]); break
            start = end
    return ids + [vocab["[SEP]"]]
def ln(x, p): m = x.mean(-1, keepdims=True); v = ((x-m)**2).mean(-1, keepdims=True); return (x-m)/np.sqrt(v+1e-12)*W[p+".weight"]+W[p+".bias"]
def lin(x, p): return x @ W[p+".weight"].T + W[p+".bias"]
erf = np.vectorize(math.erf)
def embed(text):
    ids = wordpiece(text); L = len(ids)
    x = W["embeddings.word_embeddings.weight"][ids] + W["embeddings.position_embeddings.weight"][:L] + W["embeddings.token_type_embeddings.weight"][0]
    x = ln(x, "embeddings.LayerNorm")
    for i in range(6):
        p = f"encoder.layer.{i}."
        q, k, v = (lin(x, p+"attention.self."+t).reshape(L, 12, 32).transpose(1, 0, 2) for t in ("query", "key", "value"))
        s = q @ k.transpose(0, 2, 1) / math.sqrt(32); s = np.exp(s - s.max(-1, keepdims=True)); s /= s.sum(-1, keepdims=True)
        a = (s @ v).transpose(1, 0, 2).reshape(L, 384)
        x = ln(lin(a, p+"attention.output.dense") + x, p+"attention.output.LayerNorm")
        h = lin(x, p+"intermediate.dense"); h = 0.5*h*(1+erf(h/math.sqrt(2)))
        x = ln(lin(h, p+"output.dense") + x, p+"output.LayerNorm")
    m = x.mean(0); return m/np.linalg.norm(m)
for t in sys.argv[2:]:
    e = embed(t); print(t, "|", " ".join(f"{v:.6f}" for v in e[:6]))
