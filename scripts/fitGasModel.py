import json, numpy as np
from scipy.optimize import linprog
rows=[r for r in json.load(open('.tmp/gasdata.json')) if r['status']=='success']
feat=['one','v2','v3','ticks','words','repeat','paths','nativeIn','nativeOut','ethFresh','ethFunded','tokFresh','tokFunded']
def f(r, assumeFreshSender=False):
    d=dict(r); d['one']=1; d['repeat']=r['v2']+r['v3']-r['distinct']
    d['inner']=r['v2']+r['v3']-r['paths'] if r['v2']+r['v3']>0 else 0
    if r['v2']+r['v3']==0: d['paths']=0
    eth = r['nativeOut']==1
    recvFresh = 1 if (r['freshReceiver'] or (assumeFreshSender and r['name'].endswith(('v0','v1')) and r['nativeOut']==0)) else 0
    feeEth = r.get('feeEth',0)
    fresh_fees = r['feesFresh']; funded_fees=r['feesFunded']
    d['ethFresh']= (recvFresh if eth else 0) + (fresh_fees if feeEth else 0)
    d['ethFunded']= ((1-recvFresh) if eth else 0) + (funded_fees if feeEth else 0)
    d['tokFresh']= (0 if eth else recvFresh) + (0 if feeEth else fresh_fees)
    d['tokFunded']= (0 if eth else 1-recvFresh) + (0 if feeEth else funded_fees)
    return [d[k] for k in feat]
X=np.array([f(r) for r in rows],float); y=np.array([r['gasUsed']-21000-r['calldata'] for r in rows],float)
# LP: min sum(Xc - y) s.t. Xc >= y
res=linprog(c=X.sum(axis=0), A_ub=-X, b_ub=-y, bounds=[(None,None)]*len(feat), method='highs')
coef=res.x
for k,c in zip(feat,coef): print(f"{k:14s} {c:10.0f}")
tot=np.array([r['gasUsed'] for r in rows]); base=np.array([21000+r['calldata'] for r in rows])
# at quote time the sender (receiver when none given) is unknown -> assume fresh
Xq=np.array([f(r, True) for r in rows],float)
est=base+np.ceil(Xq@coef)
ratio=est/tot
print('ratio min %.3f max %.3f' % (ratio.min(), ratio.max()))
idx=np.argsort(ratio)
for i in list(idx[-8:]): print(rows[i]['name'], rows[i]['gasUsed'], int(est[i]), round(ratio[i],3))
Xa=np.array([f(r, False) for r in rows],float)
est2=base+np.ceil(Xa@coef)
ratio2=est2/tot
print('known balances: ratio min %.3f max %.3f' % (ratio2.min(), ratio2.max()))
idx=np.argsort(ratio2)
for i in list(idx[-6:]): print(rows[i]['name'], rows[i]['gasUsed'], int(est2[i]), round(ratio2[i],3), {k:rows[i][k] for k in ['v2','v3','ticks','words','paths','fees']})
