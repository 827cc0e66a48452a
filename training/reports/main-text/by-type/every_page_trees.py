"""The every-page main-text model with gradient-boosted trees started from its logistic answer
(lightgbm, `init_score`), simulated on every set's development pages in three folds (the choice
behind `EVERY_PAGE_MODEL_WITH_TREES` in src/train/main_text.rs): `python every_page_trees.py
rows.csv` (rows from `train-main-text --rows-out`). Prints WCXB per type at P >= 0.3 and the
other sets' page F1 at P >= 0.5."""
import sys
sys.argv = sys.argv[:2]
src=open(__file__.replace('every_page_trees.py', 'simulate.py')).read()
exec(src.split('wcxb = rows[rows.set == "wcxb"]')[0])
import lightgbm as lgb, zlib
# every set in 3 folds: WCXB by domain (as before), the others by page name
rows.loc[rows.fold<0,'fold']=[zlib.crc32((s+p).encode())%3 for s,p in zip(rows.set[rows.fold<0], rows.page[rows.fold<0])]
names=without_repeats
def logit_fit(train):
    sc=StandardScaler().fit(train[names], sample_weight=train.weight)
    m=LogisticRegression(max_iter=2000).fit(sc.transform(train[names]), train.is_main, sample_weight=train.weight)
    return lambda o: m.decision_function(sc.transform(o[names]))
res={}
for label,trees,depth in [('logistic',0,0),('from logistic 100 d4',100,4),('from logistic 200 d4',200,4),('from logistic 100 d6',100,6)]:
    held=[]
    for fold in range(3):
        train,test=rows[rows.fold!=fold],rows[rows.fold==fold]
        lf=logit_fit(train)
        m0=lf(train); t0=lf(test)
        if trees:
            b=lgb.LGBMClassifier(n_estimators=trees,max_depth=depth,num_leaves=2**depth,learning_rate=0.1,min_child_samples=20,reg_lambda=1.0,verbose=-1)
            b.fit(train[names],train.is_main,sample_weight=train.weight,init_score=m0)
            t0=t0+b.predict(test[names],raw_score=True)
        held.append(test.assign(p=1/(1+np.exp(-t0))))
    h=pd.concat(held)
    w=h[h.set=='wcxb']
    sc=page_f1(w,w.p.values,0.3)
    kinds=sc.index.get_level_values(1).str.split("/").str[0]
    line=' | '.join(f"{sc[kinds==k].mean():.3f}" for k in TYPES)
    others=' '.join(f"{s}:{page_f1(h[h.set==s],h[h.set==s].p.values,0.5).mean():.3f}" for s in ['dragnet','l3s-gn1','cleaneval','big9','readability'])
    print(f"| {label} | {line} | {sc.mean():.3f} | {others}"); sys.stdout.flush()
